package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.runtime.client.ApiFailures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Lists pages over fabric8's HTTP client with the client's own serialization, sending the request
 * for the next page as soon as the page's continue token has been decoded ({@link ListBodyFilter}),
 * before its items.
 *
 * <p>The API server writes a list's {@code metadata} (with the continue token) before its {@code
 * items}, so the server prepares and sends page k+1 while this client decodes page k: the two
 * overlap instead of taking turns. The request sent ahead serves the next {@link #list} call if
 * that call asks for exactly that continuation (same token and limit); any other call, a failed
 * page or {@link #abandon()} drops it (its response is ignored). Failures are those of fabric8's
 * own list call: a {@link KubernetesClientException} with the HTTP code and the server's Status
 * (410 for an expired continue token), or one with code 0 for a connection that failed or broke.
 *
 * <p>Thread-safe; one list (a chain of pages) at a time is what it is built for.
 */
final class HttpListPager<T extends HasMetadata> implements Pager<T> {

  private final HttpClient http;
  private final String collectionUrl;
  private final String apiVersion;
  private final Selection selection;
  private final long timeoutMillis;
  private final KubernetesSerialization serialization;
  private final TypeReference<KubernetesResourceList<T>> listType;
  private final boolean dropManagedFields;
  // Null when items are decoded whole.
  private final @Nullable SkippingReader skipping;

  private final Object lock = new Object();
  // Guarded by lock: the request sent for the page expected next, or null.
  private @Nullable Ahead ahead;

  /** A request sent before anyone asked for it, and its response to come. */
  private record Ahead(ListRequest request, CompletableFuture<HttpResponse<byte[]>> response) {}

  /**
   * @param http the client's HTTP client (its interceptors add authentication)
   * @param collectionUrl the URL of the collection, without a query ({@code
   *     https://host/api/v1/namespaces/ns/pods})
   * @param apiVersion set on items that come without one (as fabric8's list does)
   * @param selection its label and field selectors (the namespace is in the URL)
   * @param timeoutMillis request timeout; zero or less for the client's default
   * @param serialization the client's, to decode pages with
   * @param type the item type
   * @param dropManagedFields whether listed objects' managed fields are replaced by null before
   *     decoding (see {@link ListBodyFilter}): for the default transform, which drops them anyway
   * @param skip what of each item the decoder may skip (see {@link Transports#forType}), or null to
   *     decode items whole
   */
  HttpListPager(
      HttpClient http,
      String collectionUrl,
      String apiVersion,
      Selection selection,
      long timeoutMillis,
      KubernetesSerialization serialization,
      Class<T> type,
      boolean dropManagedFields,
      @Nullable TokenFilter skip) {
    this.http = Objects.requireNonNull(http, "http");
    this.collectionUrl = Objects.requireNonNull(collectionUrl, "collectionUrl");
    this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
    this.selection = Objects.requireNonNull(selection, "selection");
    this.timeoutMillis = timeoutMillis;
    this.serialization = Objects.requireNonNull(serialization, "serialization");
    Type listOfT =
        serialization.constructParametricType(
            DefaultKubernetesResourceList.class, Objects.requireNonNull(type, "type"));
    this.listType =
        new TypeReference<>() {
          @Override
          public Type getType() {
            return listOfT;
          }
        };
    this.dropManagedFields = dropManagedFields;
    this.skipping =
        skip == null ? null : SkippingReader.of(serialization, listOfT, SkippingReader.list(skip));
  }

  /**
   * Lists one page; blocks until it is decoded.
   *
   * @throws KubernetesClientException as described on the type
   */
  @Override
  public ListPage<T> list(ListRequest request) {
    Objects.requireNonNull(request, "request");
    CompletableFuture<HttpResponse<byte[]>> pending = claim(request);
    if (pending == null) {
      pending = send(request);
    }
    boolean decoded = false;
    try {
      HttpResponse<byte[]> response = await(pending);
      byte[] body = response.body() == null ? new byte[0] : response.body();
      if (!response.isSuccessful()) {
        throw ApiFailures.refused(serialization, "GET", collectionUrl, response.code(), body);
      }
      ListPage<T> page = decode(new ByteArrayInputStream(body), request);
      decoded = true;
      return page;
    } finally {
      if (!decoded) {
        abandon();
      }
    }
  }

  /**
   * A list of one object at resourceVersion "" (quorum), apart from the chain of pages: it neither
   * claims nor sends a request ahead.
   */
  @Override
  public @Nullable String latestResourceVersion() {
    HttpResponse<byte[]> response = await(send(new ListRequest("", 1, null)));
    byte[] body = response.body() == null ? new byte[0] : response.body();
    if (!response.isSuccessful()) {
      throw ApiFailures.refused(serialization, "GET", collectionUrl, response.code(), body);
    }
    KubernetesResourceList<T> list =
        serialization.unmarshal(new ByteArrayInputStream(body), listType);
    ListMeta meta = list == null ? null : list.getMetadata();
    return meta == null ? null : meta.getResourceVersion();
  }

  /**
   * Drops the request sent ahead, if any: its response is ignored (the HTTP client reads it whole
   * all the same, which keeps its connection usable).
   */
  @Override
  public void abandon() {
    synchronized (lock) {
      ahead = null;
    }
  }

  /** Whether a request for the next page is out (for tests). */
  boolean hasRequestAhead() {
    synchronized (lock) {
      return ahead != null;
    }
  }

  /** Takes the response sent ahead if it is the one {@code request} asks for; drops it if not. */
  private @Nullable CompletableFuture<HttpResponse<byte[]>> claim(ListRequest request) {
    Ahead taken;
    synchronized (lock) {
      taken = ahead;
      ahead = null;
    }
    if (taken == null) {
      return null;
    }
    // A response not asked for is ignored.
    return taken.request().equals(request) ? taken.response() : null;
  }

  private void sendAhead(ListRequest current, String continueToken) {
    if (continueToken == null || continueToken.isEmpty()) {
      return;
    }
    ListRequest next = new ListRequest("", current.limit(), continueToken);
    CompletableFuture<HttpResponse<byte[]>> response = send(next);
    synchronized (lock) {
      ahead = new Ahead(next, response);
    }
  }

  private CompletableFuture<HttpResponse<byte[]>> send(ListRequest request) {
    HttpRequest.Builder builder =
        http.newHttpRequestBuilder()
            .uri(URI.create(url(request)))
            .header("Accept", "application/json");
    if (timeoutMillis > 0) {
      builder.timeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }
    return http.sendAsync(builder.build(), byte[].class);
  }

  /** The page's URL: limit, then the continue token or else the resourceVersion, then selectors. */
  String url(ListRequest request) {
    StringBuilder sb = new StringBuilder(collectionUrl).append("?limit=").append(request.limit());
    if (request.continueToken() != null && !request.continueToken().isEmpty()) {
      sb.append("&continue=").append(Selection.encode(request.continueToken()));
    } else if (!request.resourceVersion().isEmpty()) {
      sb.append("&resourceVersion=").append(Selection.encode(request.resourceVersion()));
    }
    selection.appendSelectors(sb);
    return sb.toString();
  }

  private ListPage<T> decode(InputStream body, ListRequest request) {
    ListBodyFilter filtered =
        new ListBodyFilter(body, dropManagedFields, token -> sendAhead(request, token));
    KubernetesResourceList<T> list;
    if (skipping == null) {
      list = serialization.unmarshal(filtered, listType);
    } else {
      try {
        list = skipping.read(filtered);
      } catch (IOException e) {
        throw new KubernetesClientException("list of " + collectionUrl + ": " + e.getMessage(), e);
      }
    }
    if (list == null) {
      throw new KubernetesClientException("list of " + collectionUrl + ": empty body");
    }
    List<T> items = list.getItems() == null ? List.of() : list.getItems();
    for (T item : items) {
      String itemVersion = item.getApiVersion();
      if (itemVersion == null || itemVersion.isEmpty()) {
        item.setApiVersion(apiVersion);
      }
    }
    ListMeta meta = list.getMetadata();
    return new ListPage<>(
        items,
        meta == null ? null : meta.getResourceVersion(),
        meta == null ? null : meta.getContinue());
  }

  private HttpResponse<byte[]> await(CompletableFuture<HttpResponse<byte[]>> pending) {
    try {
      return pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("list of " + collectionUrl + " interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof KubernetesClientException k) {
        throw k;
      }
      throw new KubernetesClientException(
          "list of " + collectionUrl + " failed: " + cause.getMessage(), cause);
    }
  }
}
