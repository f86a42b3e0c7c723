package io.podset.runtime.informer.transport;

import org.jspecify.annotations.Nullable;

/**
 * One page request of a list call.
 *
 * @param resourceVersion "0" (any version, e.g. from the watch cache), "" (most recent, a quorum
 *     read) or a version the result must not be older than; ignored on continuation pages
 * @param limit the page size (positive)
 * @param continueToken the token of the previous page, or null for the first page
 */
public record ListRequest(String resourceVersion, long limit, @Nullable String continueToken) {

  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException if {@code limit} is not positive or {@code resourceVersion} is
   *     null
   */
  public ListRequest {
    if (resourceVersion == null) {
      throw new IllegalArgumentException("resourceVersion must not be null (use \"\" or \"0\")");
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
  }
}
