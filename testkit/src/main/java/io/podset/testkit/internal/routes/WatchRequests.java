package io.podset.testkit.internal.routes;

import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.WatchResult;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.read.WatchSession;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.FieldSelector;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.tables.Tables;
import java.time.Duration;
import java.util.Objects;

/**
 * A watch request's parameters (selectors, {@code resourceVersion} and its match, {@code
 * sendInitialEvents}, bookmarks, {@code timeoutSeconds}, Table output) turned into the watch
 * session the front end opens, with the real server's 400 and 422 answers.
 */
final class WatchRequests {

  private final ObjectStore store;
  private final Clock clock;
  private final Duration bookmarkInterval;

  WatchRequests(ObjectStore store, Clock clock, Duration bookmarkInterval) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.bookmarkInterval = Objects.requireNonNull(bookmarkInterval, "bookmarkInterval");
  }

  /** The watch a request asks for, checked as kube-apiserver checks it. */
  ApiResult open(ApiRequest request, ResourceType type, String ns) {
    LabelSelector labels = LabelSelector.parse(request.param("labelSelector"));
    FieldSelector fields =
        FieldSelector.parse(
            request.param("fieldSelector"), type.fieldSelectors(), StatusError.qualified(type));
    String rv = request.param("resourceVersion");
    String match = request.param("resourceVersionMatch");
    String sendInitial = request.param("sendInitialEvents");
    boolean bookmarks = "true".equals(request.param("allowWatchBookmarks"));
    Duration timeout = null;
    String timeoutParam = request.param("timeoutSeconds");
    if (timeoutParam != null && !timeoutParam.isEmpty()) {
      try {
        long seconds = Long.parseLong(timeoutParam);
        timeout = seconds > 0 ? Duration.ofSeconds(seconds) : null;
      } catch (NumberFormatException e) {
        throw StatusError.badRequest("timeoutSeconds: Invalid value: \"" + timeoutParam + "\"");
      }
    }
    boolean initialEventsEnd = false;
    Long from;
    if ("true".equals(sendInitial)) {
      if (!"NotOlderThan".equals(match)) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            null);
      }
      if (!bookmarks) {
        throw new StatusError(
            422,
            "Invalid",
            "allowWatchBookmarks: Forbidden: sendInitialEvents requires allowWatchBookmarks=true",
            null);
      }
      initialEventsEnd = true;
      from = null;
    } else {
      if (match != null && !match.isEmpty()) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            null);
      }
      boolean noInitial = "false".equals(sendInitial);
      if (rv == null || rv.isEmpty() || rv.equals("0")) {
        from = noInitial ? store.revision() : null;
      } else {
        from = ObjectReads.parseRevision(rv);
      }
    }
    if (request.wantsTable()) {
      Tables.checkInclude(request.param("includeObject"));
    }
    String prefix = type.namespaced() && ns != null ? ns + "/" : "";
    WatchSession.Options options =
        new WatchSession.Options(
            prefix,
            labels,
            fields,
            bookmarks,
            initialEventsEnd,
            timeout,
            request.wantsTable(),
            request.param("includeObject"));
    return new WatchResult(
        sink -> new WatchSession(type, options, sink, clock).start(store, from, bookmarkInterval));
  }
}
