package io.podset.testkit.internal.http;

/**
 * A stage of the request pipeline, in front of the API handlers: it can observe, alter, delay or
 * answer a request (a request journal, fault-injection rules). Filters run on worker threads and
 * may block.
 */
@FunctionalInterface
public interface RequestFilter {

  /** Handles the request, usually by calling {@code next.proceed(request)}. */
  ApiResult filter(ApiRequest request, Chain next);

  /**
   * Whether the filter may block as it stands (latency rules); requests then run on a worker thread
   * instead of the event loop.
   */
  default boolean mayBlock() {
    return true;
  }

  /** The rest of the pipeline. */
  @FunctionalInterface
  interface Chain {
    ApiResult proceed(ApiRequest request);
  }
}
