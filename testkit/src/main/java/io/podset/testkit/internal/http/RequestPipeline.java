package io.podset.testkit.internal.http;

import io.podset.testkit.internal.resource.StatusError;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ordered filters in front of the API handler. Errors thrown by the handler become {@code
 * Status} responses before filters see them, so every filter observes the final status.
 */
public final class RequestPipeline {

  private static final Logger LOG = LoggerFactory.getLogger(RequestPipeline.class);

  private final List<RequestFilter> filters = new CopyOnWriteArrayList<>();
  private final RequestFilter.Chain handler;
  private final boolean handlerBlocks;
  private final Object lock = new Object();
  // Written under lock whenever filters change, read without it: the filters in order, each
  // bound to the rest of the pipeline, so that a request builds no chain of its own.
  private volatile RequestFilter.Chain head = this::terminal;

  /** A pipeline whose handler never blocks (it works in memory under short locks). */
  public RequestPipeline(RequestFilter.Chain handler) {
    this(handler, false);
  }

  /**
   * @param handlerBlocks whether the handler may block (one that waits for another server), so
   *     every request runs on a worker thread
   */
  public RequestPipeline(RequestFilter.Chain handler, boolean handlerBlocks) {
    this.handler = Objects.requireNonNull(handler, "handler");
    this.handlerBlocks = handlerBlocks;
  }

  /** Adds a filter in front of those already present (the last added runs first). */
  public void addFirst(RequestFilter filter) {
    Objects.requireNonNull(filter, "filter");
    synchronized (lock) {
      filters.add(0, filter);
      head = chain();
    }
  }

  void remove(RequestFilter filter) {
    synchronized (lock) {
      filters.remove(filter);
      head = chain();
    }
  }

  private RequestFilter.Chain chain() {
    RequestFilter.Chain chain = this::terminal;
    for (int i = filters.size() - 1; i >= 0; i--) {
      RequestFilter filter = filters.get(i);
      RequestFilter.Chain next = chain;
      chain = request -> filter.filter(request, next);
    }
    return chain;
  }

  /** Whether the handler or a filter may block. */
  boolean mayBlock() {
    if (handlerBlocks) {
      return true;
    }
    for (RequestFilter filter : filters) {
      if (filter.mayBlock()) {
        return true;
      }
    }
    return false;
  }

  /** The answer to {@code request}; a filter that throws answers 500 instead of leaving none. */
  ApiResult handle(ApiRequest request) {
    try {
      return head.proceed(request);
    } catch (RuntimeException e) {
      return failed(request, e);
    }
  }

  // The handler's errors become answers here, so that filters (the journal) see them.
  private ApiResult terminal(ApiRequest request) {
    try {
      return handler.proceed(request);
    } catch (RuntimeException e) {
      return failed(request, e);
    }
  }

  private static ApiResponse failed(ApiRequest request, RuntimeException e) {
    if (e instanceof StatusError status) {
      return ApiResponse.error(status);
    }
    LOG.error("Internal error serving {} {}", request.method(), request.path(), e);
    return ApiResponse.error(
        new StatusError(500, "InternalError", "Internal error occurred: " + e, null));
  }
}
