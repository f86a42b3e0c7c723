package io.podset.runtime.client;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;

/**
 * An HTTP client factory a user added on purpose (fabric8's priority 0, as OkHttp's and the JDK's),
 * registered for fabric8's look-up only by the tests that put it on a class path.
 */
public final class UsersHttpClientFactory extends VertxHttpClientFactory {

  @Override
  public int priority() {
    return 0;
  }
}
