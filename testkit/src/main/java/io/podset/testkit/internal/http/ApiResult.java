package io.podset.testkit.internal.http;

/**
 * What the API layer answers: a complete response, a response cut off in its body (a fault), or a
 * watch stream to open.
 */
public sealed interface ApiResult permits ApiResponse, CutResponse, WatchResult {

  /** The HTTP status the client will see (200 for a watch stream). */
  int status();
}
