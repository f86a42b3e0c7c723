package io.podset.benchmarks.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP/1.1 JSON client over the JDK's, shared by the seeding and load code. */
public final class Http {

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final URI base;

  /** A client of the server at {@code base}. */
  public Http(URI base) {
    this.base = base;
  }

  /**
   * Sends a request and returns the body.
   *
   * @throws IllegalStateException on an error status or an I/O failure
   */
  public String send(String method, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + " " + path + " interrupted", e);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(
          method + " " + path + " -> " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }
}
