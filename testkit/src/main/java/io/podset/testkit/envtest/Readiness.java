package io.podset.testkit.envtest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/** Polls health endpoints and other conditions until they hold or a deadline passes. */
final class Readiness {

  private static final long POLL_MILLIS = 100;

  private Readiness() {}

  /**
   * Whether {@code GET uri} answers 200.
   *
   * @param tls the trust for https, or null for plain http
   * @param bearerToken sent as {@code Authorization: Bearer}, or null
   */
  static boolean answersOk(URI uri, @Nullable SSLContext tls, @Nullable String bearerToken) {
    // HTTP/1.1: kube-controller-manager answers an HTTP/2 health check with GOAWAY, which the JDK
    // client reports as a failure even though the response arrived.
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2));
    if (tls != null) {
      builder.sslContext(tls);
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET();
    if (bearerToken != null) {
      request.header("Authorization", "Bearer " + bearerToken);
    }
    try {
      HttpResponse<Void> response =
          builder.build().send(request.build(), HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControlPlaneException("interrupted while waiting for " + uri, e);
    }
  }

  /**
   * Polls {@code condition} until it holds; fails fast when a watched process exits.
   *
   * @param what names the condition in the timeout message
   * @param deadlineNanos {@link System#nanoTime()} after which it gives up
   * @param watched processes that must stay alive meanwhile
   * @throws ControlPlaneException on timeout (with the log of the last watched process) or when a
   *     watched process exits
   */
  static void await(
      String what, long deadlineNanos, List<ManagedProcess> watched, BooleanSupplier condition) {
    while (true) {
      for (ManagedProcess process : watched) {
        process.checkAlive();
      }
      if (condition.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() - deadlineNanos > 0) {
        String log =
            watched.isEmpty()
                ? ""
                : "; end of " + last(watched).name() + " log:\n" + last(watched).logTail();
        throw new ControlPlaneException("timed out waiting for " + what + log);
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ControlPlaneException("interrupted while waiting for " + what, e);
      }
    }
  }

  private static ManagedProcess last(List<ManagedProcess> processes) {
    return processes.get(processes.size() - 1);
  }
}
