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
import io.fabric8.kubernetes.client.http.HttpClient;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import java.util.function.UnaryOperator;
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
   * <p>Lists go straight through the client's HTTP client: each page is decoded as it streams in,
   * the next page is requested as soon as the continue token is known (so the server prepares it
   * while this page is decoded), and with the default transform ({@link
   * InformerOptions#stripManagedFields()}, or a {@link Projections} transform not keeping them) the
   * managed fields of listed objects are skipped rather than decoded and then dropped. With {@link
   * WatchTransport#HTTP_STREAM} (the default) the watch is an HTTP stream whose events are decoded
   * and handed to the informer on the connection's I/O thread; with {@link WatchTransport#FABRIC8}
   * it is fabric8's watch.
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
    String apiVersion = HasMetadata.getApiVersion(type);
    String description = describe(apiVersion, HasMetadata.getKind(type), options);
    String url =
        collectionUrl(
            client,
            HasMetadata.getGroup(type),
            HasMetadata.getVersion(type),
            HasMetadata.getPlural(type),
            Namespaced.class.isAssignableFrom(type) ? options.namespace() : null);
    HttpListPager<T> pager =
        new HttpListPager<>(
            client.getHttpClient(),
            url,
            apiVersion,
            options.labelSelector(),
            options.fieldSelector(),
            client.getConfiguration().getRequestTimeout(),
            client.getKubernetesSerialization(),
            type,
            dropsManagedFields(options.transform()));
    if (options.watchTransport() == WatchTransport.HTTP_STREAM) {
      HttpWatch<T> watch =
          new HttpWatch<>(
              watchHttpClient(client),
              url,
              apiVersion,
              options.labelSelector(),
              options.fieldSelector(),
              client.getConfiguration().getRequestTimeout(),
              client.getKubernetesSerialization(),
              type);
      return new HttpListerWatcher<>(pager, watch, description);
    }
    var watchOp = watchClient(client).resources(type);
    var watcher =
        options.namespace() == null
            ? watchOp.inAnyNamespace()
            : watchOp.inNamespace(options.namespace());
    return new Fabric8ListerWatcher<>(pager, watcher::watch, options, clock, description);
  }

  /** Whether {@code transform} drops managed fields, so that lists need not decode them. */
  static boolean dropsManagedFields(UnaryOperator<HasMetadata> transform) {
    return transform == InformerOptions.stripManagedFields()
        || (transform instanceof FieldProjection projection && !projection.keepsManagedFields());
  }

  /**
   * The client's HTTP client (same connections, interceptors and authentication) without its own
   * retries of 5xx answers and I/O failures, so that every failure of a watch reaches the
   * reflector, which decides how to recover and reports it in health.
   */
  static HttpClient watchHttpClient(KubernetesClient client) {
    HttpClient http = client.getHttpClient();
    try {
      RequestConfig config =
          new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
              .withRequestRetryBackoffLimit(0)
              .build();
      return http.newBuilder().tag(config).build();
    } catch (RuntimeException e) {
      log.warn(
          "Cannot derive a non-retrying HTTP client for watches ({}); fabric8 may retry failed"
              + " watch requests by itself",
          e.toString());
      return http;
    }
  }

  /**
   * {@code <master>/api/v1[/namespaces/<ns>]/<plural>} for the core group, {@code
   * <master>/apis/<group>/<version>[/namespaces/<ns>]/<plural>} otherwise.
   */
  static String collectionUrl(
      KubernetesClient client, String group, String version, String plural, String namespace) {
    String master = client.getMasterUrl().toString();
    StringBuilder sb = new StringBuilder(master);
    if (!master.endsWith("/")) {
      sb.append('/');
    }
    if (group == null || group.isEmpty()) {
      sb.append("api/").append(version);
    } else {
      sb.append("apis/").append(group).append('/').append(version);
    }
    if (namespace != null) {
      sb.append("/namespaces/").append(namespace);
    }
    return sb.append('/').append(plural).toString();
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
    String description =
        describe(
            apiVersion,
            context.getKind() == null ? context.getPlural() : context.getKind(),
            options);
    var listOp = client.genericKubernetesResources(context);
    if (options.watchTransport() == WatchTransport.HTTP_STREAM) {
      var lister =
          options.namespace() == null
              ? listOp.inAnyNamespace()
              : listOp.inNamespace(options.namespace());
      HttpWatch<GenericKubernetesResource> watch =
          new HttpWatch<>(
              watchHttpClient(client),
              collectionUrl(
                  client,
                  context.getGroup(),
                  context.getVersion(),
                  context.getPlural(),
                  context.isNamespaceScoped() ? options.namespace() : null),
              apiVersion,
              options.labelSelector(),
              options.fieldSelector(),
              client.getConfiguration().getRequestTimeout(),
              client.getKubernetesSerialization(),
              GenericKubernetesResource.class);
      return new HttpListerWatcher<>(
          Fabric8ListerWatcher.listCall(lister::list, options), watch, description);
    }
    return create(
        listOp,
        watchClient(client).genericKubernetesResources(context),
        options,
        clock,
        description);
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
      return new Fabric8ListerWatcher<>(
          Fabric8ListerWatcher.listCall(lister::list, options),
          watcher::watch,
          options,
          clock,
          description);
    }
    var lister = listOp.inNamespace(namespace);
    var watcher = watchOp.inNamespace(namespace);
    return new Fabric8ListerWatcher<>(
        Fabric8ListerWatcher.listCall(lister::list, options),
        watcher::watch,
        options,
        clock,
        description);
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
