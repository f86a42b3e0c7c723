package io.podset.testkit.internal.http;

import java.util.Objects;

/**
 * A response whose connection breaks in the middle of its body: the status line and headers
 * (declaring the whole body's length) and the first {@code bytes} of the body are sent, then the
 * connection is closed (HTTP/2: the stream is reset), as when a connection drops mid-response.
 *
 * @param response the response that would have been sent
 * @param bytes how much of its body is sent, less than its length
 */
public record CutResponse(ApiResponse response, int bytes) implements ApiResult {

  public CutResponse {
    Objects.requireNonNull(response, "response");
    if (bytes < 0 || (bytes >= response.body().length && response.body().length > 0)) {
      throw new IllegalArgumentException(
          "bytes must be in [0, " + response.body().length + "): " + bytes);
    }
  }

  /** The response cut after half its body. */
  public static CutResponse half(ApiResponse response) {
    return new CutResponse(response, response.body().length / 2);
  }

  @Override
  public int status() {
    return response.status();
  }
}
