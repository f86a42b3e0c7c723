package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ListerWatcher}s over the fabric8 client: the way in to this package's HTTP list and watch
 * implementations. Informers reach them through {@link io.podset.runtime.informer.ListerWatchers},
 * which reads the {@link io.podset.runtime.informer.InformerOptions}.
 */
public final class Transports {

  private static final Logger log = LoggerFactory.getLogger(Transports.class);

  private Transports() {}

  /**
   * Lists and watches a typed resource (built-in or a custom resource class).
   *
   * <p>Lists go straight through the client's HTTP client: each page is decoded as it streams in,
   * the next page is requested as soon as the continue token is known (so the server prepares it
   * while this page is decoded), and with {@code skipManagedFields} the managed fields of listed
   * and watched objects are skipped rather than decoded. With {@link WatchTransport#HTTP_STREAM}
   * the watch is an HTTP stream whose events are decoded and handed on on the connection's I/O
   * thread (in protobuf for a built-in kind when the server offers it; {@link
   * WatchTransport#HTTP_STREAM_JSON} always asks for JSON); with {@link WatchTransport#FABRIC8} it
   * is fabric8's watch. With {@code skip}, listed objects and those of the HTTP stream's events are
   * decoded through that Jackson filter of one object's JSON: the parser skips what it drops
   * instead of building it (for a transform that drops it anyway; bookmarks are decoded whole).
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped type
   */
  public static <T extends HasMetadata> ListerWatcher<T> forType(
      KubernetesClient client,
      Class<T> type,
      Selection selection,
      WatchTransport watchTransport,
      boolean skipManagedFields,
      @Nullable TokenFilter skip,
      Clock clock) {
    Objects.requireNonNull(type, "type");
    check(
        client,
        selection,
        watchTransport,
        clock,
        Namespaced.class.isAssignableFrom(type),
        "type " + type.getName());
    String apiVersion = HasMetadata.getApiVersion(type);
    String description = describe(apiVersion, HasMetadata.getKind(type), selection);
    String url =
        collectionUrl(
            client,
            HasMetadata.getGroup(type),
            HasMetadata.getVersion(type),
            HasMetadata.getPlural(type),
            selection.namespace());
    HttpListPager<T> pager =
        new HttpListPager<>(
            client.getHttpClient(),
            url,
            apiVersion,
            selection,
            client.getConfiguration().getRequestTimeout(),
            client.getKubernetesSerialization(),
            type,
            skipManagedFields,
            skip);
    if (watchTransport != WatchTransport.FABRIC8) {
      boolean protobuf = watchTransport == WatchTransport.HTTP_STREAM;
      return new PagedListerWatcher<>(
          pager,
          httpWatch(
                  client,
                  url,
                  apiVersion,
                  selection,
                  type,
                  skip == null && skipManagedFields ? SkippingReader.WITHOUT_MANAGED_FIELDS : skip,
                  protobuf)
              ::watch,
          description);
    }
    Fabric8Watch<T> watch =
        new Fabric8Watch<>(
            namespaced(watchClient(client).resources(type), selection)::watch, selection, clock);
    return new PagedListerWatcher<>(pager, watch::watch, description);
  }

  /**
   * Lists and watches any resource as {@link GenericKubernetesResource}s, for kinds without a Java
   * class; lists go through fabric8's list call.
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped resource
   */
  public static ListerWatcher<GenericKubernetesResource> forContext(
      KubernetesClient client,
      ResourceDefinitionContext context,
      Selection selection,
      WatchTransport watchTransport,
      Clock clock) {
    Objects.requireNonNull(context, "context");
    check(
        client,
        selection,
        watchTransport,
        clock,
        context.isNamespaceScoped(),
        "resource " + context.getPlural());
    String apiVersion =
        context.getGroup() == null || context.getGroup().isEmpty()
            ? context.getVersion()
            : context.getGroup() + "/" + context.getVersion();
    String description =
        describe(
            apiVersion,
            context.getKind() == null ? context.getPlural() : context.getKind(),
            selection);
    Pager<GenericKubernetesResource> pager =
        Pager.listCall(
            namespaced(client.genericKubernetesResources(context), selection)::list, selection);
    if (watchTransport != WatchTransport.FABRIC8) {
      String url =
          collectionUrl(
              client,
              context.getGroup(),
              context.getVersion(),
              context.getPlural(),
              selection.namespace());
      return new PagedListerWatcher<>(
          pager,
          httpWatch(
                  client, url, apiVersion, selection, GenericKubernetesResource.class, null, false)
              ::watch,
          description);
    }
    Fabric8Watch<GenericKubernetesResource> watch =
        new Fabric8Watch<>(
            namespaced(watchClient(client).genericKubernetesResources(context), selection)::watch,
            selection,
            clock);
    return new PagedListerWatcher<>(pager, watch::watch, description);
  }

  private static void check(
      KubernetesClient client,
      Selection selection,
      WatchTransport watchTransport,
      Clock clock,
      boolean namespaced,
      String what) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(selection, "selection");
    Objects.requireNonNull(watchTransport, "watchTransport");
    Objects.requireNonNull(clock, "clock");
    if (selection.namespace() != null && !namespaced) {
      throw new IllegalArgumentException(
          "namespace '" + selection.namespace() + "' given for cluster-scoped " + what);
    }
  }

  private static <T extends HasMetadata> HttpWatch<T> httpWatch(
      KubernetesClient client,
      String url,
      String apiVersion,
      Selection selection,
      Class<T> type,
      @Nullable TokenFilter skip,
      boolean protobuf) {
    return new HttpWatch<>(
        watchHttpClient(client),
        url,
        apiVersion,
        selection,
        client.getConfiguration().getRequestTimeout(),
        client.getKubernetesSerialization(),
        type,
        skip,
        protobuf);
  }

  /** The operation in the selection's namespace, or in all namespaces. */
  private static <T extends HasMetadata, L extends KubernetesResourceList<T>>
      FilterWatchListDeletable<T, L, ?> namespaced(
          MixedOperation<T, L, ?> operation, Selection selection) {
    return selection.namespace() == null
        ? operation.inAnyNamespace()
        : operation.inNamespace(selection.namespace());
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
      KubernetesClient client,
      String group,
      String version,
      String plural,
      @Nullable String namespace) {
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

  private static String describe(String apiVersion, String kind, Selection selection) {
    StringBuilder sb = new StringBuilder(apiVersion).append('/').append(kind);
    sb.append(
        selection.namespace() == null ? " in all namespaces" : " in " + selection.namespace());
    if (selection.labelSelector() != null) {
      sb.append(" labels ").append(selection.labelSelector());
    }
    if (selection.fieldSelector() != null) {
      sb.append(" fields ").append(selection.fieldSelector());
    }
    return sb.toString();
  }
}
