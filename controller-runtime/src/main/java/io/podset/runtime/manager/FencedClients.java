package io.podset.runtime.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.client.KubernetesClients;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/** Clients whose writes are refused while a fence is down. */
public final class FencedClients {

  private FencedClients() {}

  /**
   * A new client with {@code base}'s configuration whose mutating requests fail with {@link
   * FencedWriteException} (wrapped by fabric8 in a {@code KubernetesClientException}) whenever
   * {@code mayWrite} is false. It builds its HTTP client as {@link KubernetesClients#builder()}
   * does. The check runs immediately before each request is sent. The caller closes the returned
   * client.
   *
   * @param identity named in the refusal message
   */
  public static KubernetesClient fenced(
      KubernetesClient base, BooleanSupplier mayWrite, String identity) {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(mayWrite, "mayWrite");
    Objects.requireNonNull(identity, "identity");
    FencingInterceptor interceptor = new FencingInterceptor(mayWrite, identity);
    return KubernetesClients.builder()
        .withConfig(base.getConfiguration())
        .withHttpClientBuilderConsumer(
            builder -> builder.addOrReplaceInterceptor(FencingInterceptor.NAME, interceptor))
        .build();
  }

  /** True when {@code failure} or one of its causes is a refused write. */
  public static boolean isFenced(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof FencedWriteException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
