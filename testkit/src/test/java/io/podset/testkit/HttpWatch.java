package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A chunked-HTTP watch opened with the JDK client, one parsed event per line. */
final class HttpWatch implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Stream<String> lines;

  HttpWatch(URI base, String pathAndQuery) {
    this(base, pathAndQuery, "testkit-http-watch");
  }

  HttpWatch(URI base, String pathAndQuery, String userAgent) {
    try {
      HttpResponse<Stream<String>> response =
          HTTP.send(
              HttpRequest.newBuilder(base.resolve(pathAndQuery))
                  .header("User-Agent", userAgent)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      assertThat(response.statusCode()).isEqualTo(200);
      lines = response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Thread reader =
        new Thread(
            () -> {
              try {
                lines.forEach(
                    line -> {
                      if (!line.isBlank()) {
                        try {
                          events.add(JSON.readTree(line));
                        } catch (IOException e) {
                          throw new UncheckedIOException(e);
                        }
                      }
                    });
              } catch (RuntimeException e) {
                // Closed.
              } finally {
                ended.countDown();
              }
            },
            "http-watch");
    reader.setDaemon(true);
    reader.start();
  }

  JsonNode next() throws InterruptedException {
    JsonNode event = events.poll(10, TimeUnit.SECONDS);
    assertThat(event).as("a watch event within 10 s").isNotNull();
    return event;
  }

  boolean awaitEnd() throws InterruptedException {
    return ended.await(10, TimeUnit.SECONDS);
  }

  boolean isEmpty() {
    return events.isEmpty();
  }

  @Override
  public void close() {
    lines.close();
  }
}
