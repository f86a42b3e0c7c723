package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Factories of {@link ListerWatcher}s backed by the fabric8 client. */
public final class ListerWatchers {

  private static final Logger log = LoggerFactory.getLogger(ListerWatchers.class);

  private ListerWatchers() {}

  /** {@link #forResource(KubernetesClient, Class, InformerOptions, Clock)} on the system clock. */
  public static <T extends HasMetadata> ListerWatcher<T> forResource(
      KubernetesClient client, Class<T> type, InformerOptions options) {
    return forResource(client, type, options, Clock.system());
  }

  /**
   * Lists and watches a typed resource (built-in or a custom resource class), in {@code
   * options.namespace()} or all namespaces, with the options' label and field selectors.
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped type
   */
  public static <T extends HasMetadata> ListerWatcher<T> forResource(
      KubernetesClient client, Class<T> type, InformerOptions options, Clock clock) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(options, "options");
    if (options.namespace() != null && !Namespaced.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(
          "namespace '"
              + options.namespace()
              + "' given for cluster-scoped type "
              + type.getName());
    }
    String description =
        describe(HasMetadata.getApiVersion(type), HasMetadata.getKind(type), options);
    return create(
        client.resources(type), watchClient(client).resources(type), options, clock, description);
  }

  /**
   * {@link #forResource(KubernetesClient, ResourceDefinitionContext, InformerOptions, Clock)} on
   * the system clock.
   */
  public static ListerWatcher<GenericKubernetesResource> forResource(
      KubernetesClient client, ResourceDefinitionContext context, InformerOptions options) {
    return forResource(client, context, options, Clock.system());
  }

  /**
   * Lists and watches any resource as {@link GenericKubernetesResource}s, for kinds without a Java
   * class.
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped resource
   */
  public static ListerWatcher<GenericKubernetesResource> forResource(
      KubernetesClient client,
      ResourceDefinitionContext context,
      InformerOptions options,
      Clock clock) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(options, "options");
    if (options.namespace() != null && !context.isNamespaceScoped()) {
      throw new IllegalArgumentException(
          "namespace '"
              + options.namespace()
              + "' given for cluster-scoped resource "
              + context.getPlural());
    }
    String apiVersion =
        context.getGroup() == null || context.getGroup().isEmpty()
            ? context.getVersion()
            : context.getGroup() + "/" + context.getVersion();
    return create(
        client.genericKubernetesResources(context),
        watchClient(client).genericKubernetesResources(context),
        options,
        clock,
        describe(
            apiVersion,
            context.getKind() == null ? context.getPlural() : context.getKind(),
            options));
  }

  private static <T extends HasMetadata, L extends KubernetesResourceList<T>>
      ListerWatcher<T> create(
          MixedOperation<T, L, ?> listOp,
          MixedOperation<T, L, ?> watchOp,
          InformerOptions options,
          Clock clock,
          String description) {
    String namespace = options.namespace();
    if (namespace == null) {
      var lister = listOp.inAnyNamespace();
      var watcher = watchOp.inAnyNamespace();
      return new Fabric8ListerWatcher<>(lister::list, watcher::watch, options, clock, description);
    }
    var lister = listOp.inNamespace(namespace);
    var watcher = watchOp.inNamespace(namespace);
    return new Fabric8ListerWatcher<>(lister::list, watcher::watch, options, clock, description);
  }

  /**
   * A client like {@code client} (same HTTP client and configuration) whose watches do not
   * reconnect by themselves, so the reflector sees, handles and reports every end of a watch.
   */
  static KubernetesClient watchClient(KubernetesClient client) {
    try {
      RequestConfig config =
          new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
              .withWatchReconnectLimit(0)
              .build();
      return client.newClient(config).adapt(KubernetesClient.class);
    } catch (RuntimeException e) {
      log.warn(
          "Cannot derive a non-reconnecting watch client ({}); fabric8 may reconnect watches"
              + " by itself, hiding watch failures from informer health",
          e.toString());
      return client;
    }
  }

  private static String describe(String apiVersion, String kind, InformerOptions options) {
    StringBuilder sb = new StringBuilder(apiVersion).append('/').append(kind);
    sb.append(options.namespace() == null ? " in all namespaces" : " in " + options.namespace());
    if (options.labelSelector() != null) {
      sb.append(" labels ").append(options.labelSelector());
    }
    if (options.fieldSelector() != null) {
      sb.append(" fields ").append(options.fieldSelector());
    }
    return sb.toString();
  }
}
