package io.podset.runtime.informer.transport;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Which objects of a resource a lister-watcher lists and watches.
 *
 * @param namespace the namespace, or null for all namespaces (and for a cluster-scoped resource)
 * @param labelSelector a label selector, or null for none
 * @param fieldSelector a field selector, or null for none
 */
public record Selection(
    @Nullable String namespace, @Nullable String labelSelector, @Nullable String fieldSelector) {

  /** Appends the query parameters of the selectors that are set (lists and watches alike). */
  void appendSelectors(StringBuilder url) {
    if (labelSelector != null) {
      url.append("&labelSelector=").append(encode(labelSelector));
    }
    if (fieldSelector != null) {
      url.append("&fieldSelector=").append(encode(fieldSelector));
    }
  }

  /** A query parameter's value, URL-encoded. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
