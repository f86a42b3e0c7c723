package io.podset.testkit.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * A complete HTTP response.
 *
 * @param status the HTTP status
 * @param contentType the media type of the body
 * @param body the body bytes
 * @param headers extra headers (for example {@code Retry-After})
 */
public record ApiResponse(int status, String contentType, byte[] body, Map<String, String> headers)
    implements ApiResult {

  public ApiResponse {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
  }

  public static ApiResponse json(int status, JsonNode body) {
    return new ApiResponse(status, "application/json", Json.bytes(body), Map.of());
  }

  /** A JSON response of bytes already serialized; callers never modify them afterwards. */
  public static ApiResponse json(int status, byte[] body) {
    return new ApiResponse(status, "application/json", body, Map.of());
  }

  public static ApiResponse text(int status, String body) {
    return new ApiResponse(
        status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  public static ApiResponse error(StatusError error) {
    return json(error.code(), error.toStatus());
  }

  public ApiResponse withHeader(String name, String value) {
    java.util.Map<String, String> copy = new java.util.HashMap<>(headers);
    copy.put(name, value);
    return new ApiResponse(status, contentType, body, copy);
  }
}
