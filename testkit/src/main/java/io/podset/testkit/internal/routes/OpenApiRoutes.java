package io.podset.testkit.internal.routes;

import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.openapi.OpenApiV2;
import io.podset.testkit.internal.openapi.OpenApiV3;
import io.podset.testkit.internal.resource.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code /openapi/v3} and its group/version documents with the real server's HTTP caching: a
 * request with the current {@code ?hash=} is answered {@code Cache-Control: public, immutable} with
 * an {@code Expires} a year ahead, one without a hash {@code no-cache, private}, one with a stale
 * hash is redirected (301) to the current one; the ETag is the hash and {@code If-None-Match}
 * answers 304. Only JSON is served for v3: an {@code Accept} without JSON (such as the protobuf
 * form) is answered 406, as the real server answers a media type it lacks. {@code /openapi/v2}
 * serves the real server's v2 document of the built-in kinds ({@link OpenApiV2}), in protobuf when
 * asked for it.
 */
final class OpenApiRoutes {

  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  // The real server writes Expires in UTC, Last-Modified in GMT.
  private static final DateTimeFormatter EXPIRES_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final Duration IMMUTABLE_FOR = Duration.ofDays(365);

  // What kubectl 1.27 and 1.28 ask for, and what the real server labels its answer.
  private static final String V2_PROTOBUF =
      "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
  private static final String V2_PROTOBUF_CONTENT_TYPE =
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  private final OpenApiV3 openApi;
  private final Supplier<Instant> now;
  private final Instant started;

  OpenApiRoutes(OpenApiV3 openApi, Supplier<Instant> now) {
    this.openApi = Objects.requireNonNull(openApi, "openApi");
    this.now = Objects.requireNonNull(now, "now");
    this.started = now.get();
  }

  /** The answer to a GET below {@code /openapi}; {@code segments} start with {@code openapi}. */
  ApiResponse route(ApiRequest request, List<String> segments) {
    if (segments.size() == 2 && segments.get(1).equals("v2")) {
      return v2(request);
    }
    if (segments.size() < 2 || !segments.get(1).equals("v3")) {
      return empty(404);
    }
    if (segments.size() == 2) {
      // As the real server: JSON, labelled text/plain.
      return new ApiResponse(
          200,
          "text/plain; charset=utf-8",
          Json.bytes(openApi.index()),
          Map.of("Cache-Control", "no-cache, private", "Last-Modified", httpDate(now.get())));
    }
    String groupVersion = null;
    if (segments.size() == 4 && segments.get(2).equals("api")) {
      groupVersion = segments.get(3);
    } else if (segments.size() == 5 && segments.get(2).equals("apis")) {
      groupVersion = segments.get(3) + "/" + segments.get(4);
    }
    OpenApiV3.Document doc = groupVersion == null ? null : openApi.document(groupVersion);
    if (doc == null) {
      return empty(404);
    }
    String etag = "\"" + doc.hash() + "\"";
    String hash = request.param("hash");
    if (hash != null && !hash.equals(doc.hash())) {
      String location = "/openapi/v3/" + OpenApiV3.path(groupVersion) + "?hash=" + doc.hash();
      return new ApiResponse(
          301,
          "application/json",
          new byte[0],
          Map.of(
              "Location",
              location,
              "ETag",
              etag,
              "Vary",
              "Accept",
              "Cache-Control",
              "no-cache, private"));
    }
    if (!acceptsJson(request.header("accept"))) {
      return empty(406).withHeader("Vary", "Accept");
    }
    ApiResponse ok =
        new ApiResponse(
            200,
            "application/json",
            doc.json(),
            Map.of("ETag", etag, "Vary", "Accept", "Last-Modified", httpDate(doc.lastModified())));
    if (hash != null) {
      ok =
          ok.withHeader("Cache-Control", "public, immutable")
              .withHeader("Expires", EXPIRES_DATE.format(now.get().plus(IMMUTABLE_FOR)));
    } else {
      ok = ok.withHeader("Cache-Control", "no-cache, private");
    }
    if (etag.equals(request.header("if-none-match"))) {
      return new ApiResponse(304, "application/json", new byte[0], ok.headers());
    }
    return ok;
  }

  /** The v2 document: protobuf when the Accept names it first, else JSON (or 406). */
  private ApiResponse v2(ApiRequest request) {
    String accept = request.header("accept");
    byte[] body;
    String type;
    if (accept != null && firstType(accept).equals(V2_PROTOBUF)) {
      body = OpenApiV2.protobuf();
      type = V2_PROTOBUF_CONTENT_TYPE;
    } else if (acceptsJson(accept)) {
      body = OpenApiV2.json();
      type = "application/json";
    } else {
      return empty(406).withHeader("Vary", "Accept");
    }
    String etag = "\"" + OpenApiV2.hash() + "\"";
    Map<String, String> headers =
        Map.of(
            "ETag",
            etag,
            "Vary",
            "Accept-Encoding, Accept", // the real server sends both, as two headers
            "Cache-Control",
            "no-cache, private",
            "Last-Modified",
            httpDate(started));
    if (etag.equals(request.header("if-none-match"))) {
      return new ApiResponse(304, type, new byte[0], headers);
    }
    return new ApiResponse(200, type, body, headers);
  }

  private static String firstType(String accept) {
    return accept.split(",")[0].split(";")[0].trim().toLowerCase(Locale.ROOT);
  }

  private static boolean acceptsJson(String accept) {
    if (accept == null || accept.isBlank()) {
      return true;
    }
    for (String range : accept.split(",")) {
      String type = range.split(";")[0].trim().toLowerCase(Locale.ROOT);
      if (type.equals("application/json") || type.equals("*/*") || type.equals("application/*")) {
        return true;
      }
    }
    return false;
  }

  private static ApiResponse empty(int status) {
    return new ApiResponse(
        status,
        "text/plain; charset=utf-8",
        "".getBytes(StandardCharsets.UTF_8),
        Map.of("Cache-Control", "no-cache, private"));
  }

  private static String httpDate(Instant instant) {
    return HTTP_DATE.format(instant);
  }
}
