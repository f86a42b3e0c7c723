package io.podset.runtime.manager;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Refuses every mutating request (anything but GET, HEAD and OPTIONS) while the fence is down.
 * Installed on the client handed to reconcilers; reads and watches are never refused, so caches
 * stay warm on a standby.
 */
final class FencingInterceptor implements Interceptor {

  static final String NAME = "podset-fencing";
  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private final BooleanSupplier mayWrite;
  private final String identity;

  FencingInterceptor(BooleanSupplier mayWrite, String identity) {
    this.mayWrite = mayWrite;
    this.identity = identity;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (!READS.contains(request.method()) && !mayWrite.getAsBoolean()) {
      throw new FencedWriteException(
          "refused "
              + request.method()
              + " "
              + request.uri().getPath()
              + ": "
              + identity
              + " does not hold the leader lease (not renewed within the renew deadline)");
    }
  }
}
