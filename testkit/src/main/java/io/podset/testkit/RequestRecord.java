package io.podset.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One request the server answered, as kept by the {@link RequestJournal}.
 *
 * @param sequence the position in the journal, from 1
 * @param time when it arrived, on the server's clock
 * @param verb the Kubernetes verb ({@code get}, {@code list}, {@code watch}, {@code create}, {@code
 *     update}, {@code patch}, {@code delete}, {@code deletecollection}), or the lower-case HTTP
 *     method for paths that are not resources
 * @param method the HTTP method
 * @param path the path, without query
 * @param query the raw query, empty when none
 * @param group the API group of the resource ({@code ""} for core), or null
 * @param resource the resource (plural), or null for discovery and other paths
 * @param subresource the subresource ({@code status}, {@code scale}), or null
 * @param namespace the namespace in the path, or null
 * @param name the object name in the path; for a create, which names none there, the name of the
 *     object it made, from a 2xx JSON answer (so a {@code generateName} create shows the name the
 *     server chose); else null
 * @param userAgent the {@code User-Agent} header, or null
 * @param user the user the request was served as: on the fake, the authenticated user after
 *     impersonation (the fake's admin, {@code fake-admin}, for a request without a token to a
 *     server that does not enforce RBAC); through a {@link FaultProxy}, which does not
 *     authenticate, the {@code Impersonate-User} header; null when neither is known (a request
 *     refused as unauthenticated)
 * @param status the HTTP status answered (200 for a watch that opened)
 * @param duration from arrival to the answer (for a watch: until the stream opened)
 * @param fault the injected fault, or null when the request was served normally
 */
public record RequestRecord(
    long sequence,
    Instant time,
    String verb,
    String method,
    String path,
    String query,
    @Nullable String group,
    @Nullable String resource,
    @Nullable String subresource,
    @Nullable String namespace,
    @Nullable String name,
    @Nullable String userAgent,
    @Nullable String user,
    int status,
    Duration duration,
    @Nullable String fault) {

  /** Checks the required components. */
  public RequestRecord {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(duration, "duration");
  }

  /** Whether the verb changes state: create, update, patch, delete or deletecollection. */
  public boolean isWrite() {
    return switch (verb) {
      case "create", "update", "patch", "delete", "deletecollection" -> true;
      default -> false;
    };
  }

  /** A one-line summary: {@code #12 create pods default/web -> 201 (3 ms)}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("#").append(sequence).append(' ').append(verb).append(' ');
    if (resource == null) {
      s.append(path);
    } else {
      s.append(group == null || group.isEmpty() ? "" : group + "/").append(resource);
      if (subresource != null) {
        s.append('/').append(subresource);
      }
      if (namespace != null || name != null) {
        s.append(' ')
            .append(namespace == null ? "" : namespace + "/")
            .append(name == null ? "*" : name);
      }
    }
    s.append(" -> ").append(status).append(" (").append(duration.toMillis()).append(" ms)");
    if (fault != null) {
      s.append(" [fault: ").append(fault).append(']');
    }
    if (userAgent != null) {
      s.append(" ua=").append(userAgent);
    }
    return s.toString();
  }
}
