package io.podset.testkit.internal.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request as the API layer sees it: verb, path, query, headers (lower-case names) and
 * body. Request filters (journal, fault injection) receive and may replace it.
 *
 * @param method the HTTP method
 * @param path the decoded path without query
 * @param query the first value of each query parameter
 * @param headers request headers by lower-case name: the first value of a repeated header, or all
 *     of them one per line for the {@code Impersonate-*} headers
 * @param body the request body, empty when none
 * @param webSocket whether the client asked for a WebSocket upgrade
 * @param segments the non-empty segments of {@code path} ({@code /api/v1/pods} -> {@code api, v1,
 *     pods}): split once, here, for every stage that reads the path (journal, faults,
 *     authorization, router)
 */
public record ApiRequest(
    String method,
    String path,
    Map<String, String> query,
    Map<String, String> headers,
    byte[] body,
    boolean webSocket,
    List<String> segments) {

  public ApiRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    query = Map.copyOf(query);
    headers = Map.copyOf(headers);
    Objects.requireNonNull(body, "body");
    segments = List.copyOf(segments);
  }

  /** A request whose {@link #segments} are split from {@code path}. */
  public ApiRequest(
      String method,
      String path,
      Map<String, String> query,
      Map<String, String> headers,
      byte[] body,
      boolean webSocket) {
    this(method, path, query, headers, body, webSocket, segmentsOf(path));
  }

  /** The non-empty segments between slashes, without regular expressions or streams. */
  static List<String> segmentsOf(String path) {
    Objects.requireNonNull(path, "path");
    List<String> segments = new ArrayList<>(8);
    int start = 0;
    int length = path.length();
    while (start < length) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? length : slash;
      if (end > start) {
        segments.add(path.substring(start, end));
      }
      start = end + 1;
    }
    return List.copyOf(segments);
  }

  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  public String param(String name) {
    return query.get(name);
  }

  /** The media type of the body without parameters, or null. */
  public String contentType() {
    String type = header("content-type");
    if (type == null) {
      return null;
    }
    int semicolon = type.indexOf(';');
    return (semicolon < 0 ? type : type.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  /** Whether the client asked for {@code meta.k8s.io} Table output. */
  public boolean wantsTable() {
    String accept = header("accept");
    return accept != null && accept.contains("as=Table");
  }
}
