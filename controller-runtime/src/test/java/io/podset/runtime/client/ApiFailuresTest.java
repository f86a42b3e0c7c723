package io.podset.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ApiFailuresTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void statusBody_isTheExceptionsStatus_withItsReasonAndRetryAfter() {
    KubernetesClientException e =
        ApiFailures.refused(
            serialization,
            "POST",
            "https://api/v1/namespaces/a/pods",
            429,
            bytes(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                    + "\"slow down\",\"reason\":\"TooManyRequests\",\"details\":"
                    + "{\"retryAfterSeconds\":2},\"code\":429}"));

    assertThat(e.getCode()).isEqualTo(429);
    assertThat(e.getStatus().getReason()).isEqualTo("TooManyRequests");
    assertThat(e.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(2);
    assertThat(e.getMessage())
        .isEqualTo(
            "Failure executing: POST at: https://api/v1/namespaces/a/pods. Message: slow down.");
  }

  @Test
  void bodyThatIsNoStatus_becomesTheMessage_underTheAnswersCode() {
    KubernetesClientException e =
        ApiFailures.refused(serialization, "GET", "https://api/v1/pods", 502, bytes("bad gateway"));

    assertThat(e.getCode()).isEqualTo(502);
    assertThat(e.getStatus().getCode()).isEqualTo(502);
    assertThat(e.getStatus().getMessage()).isEqualTo("bad gateway");
    assertThat(e.getMessage()).endsWith("Message: bad gateway.");
  }

  @Test
  void statusWithoutCode_getsTheAnswersCode() {
    KubernetesClientException e =
        ApiFailures.refused(
            serialization,
            "PATCH",
            "https://api/x",
            409,
            bytes("{\"kind\":\"Status\",\"message\":\"conflict\",\"reason\":\"Conflict\"}"));

    assertThat(e.getStatus().getCode()).isEqualTo(409);
    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
  }

  @Test
  void describe_answer_isTheServerMessageWithCodeAndReason() {
    KubernetesClientException answer =
        ApiFailures.refused(
            serialization,
            "POST",
            "https://api/v1/namespaces/a/pods",
            500,
            bytes(
                "{\"kind\":\"Status\",\"message\":\"etcd timed out\",\"reason\":\"InternalError\"}"));

    assertThat(ApiFailures.describe(answer)).isEqualTo("etcd timed out (HTTP 500 InternalError)");
    assertThat(ApiFailures.describe(new CompletionException(answer)))
        .isEqualTo("etcd timed out (HTTP 500 InternalError)");
  }

  @Test
  void describe_wrappedAnswer_addsTheServerMessageOnce_andTheStatusOnce() {
    KubernetesClientException answer =
        ApiFailures.refused(serialization, "POST", "https://api/x", 429, bytes("slow down"));

    assertThat(ApiFailures.describe(new IllegalStateException("cannot create pods", answer)))
        .isEqualTo("cannot create pods: slow down (HTTP 429)");
    assertThat(
            ApiFailures.describe(
                new IllegalStateException("cannot create pods: slow down (HTTP 429)", answer)))
        .isEqualTo("cannot create pods: slow down (HTTP 429)");
  }

  @Test
  void describe_withoutAnAnswer_joinsTheCausesMessages() {
    Exception io = new java.io.IOException("connection refused");
    assertThat(ApiFailures.describe(new IllegalStateException("cannot list pods", io)))
        .isEqualTo("cannot list pods: connection refused");
    assertThat(ApiFailures.describe(new IllegalStateException("x: connection refused", io)))
        .isEqualTo("x: connection refused");
    assertThat(ApiFailures.describe(new NullPointerException()))
        .isEqualTo("java.lang.NullPointerException");
  }

  @Test
  void isTransient_conflictThrottlingServerErrorsAndBrokenConnections_only() {
    for (int code : new int[] {409, 429, 500, 503, 504}) {
      assertThat(ApiFailures.isTransient(new KubernetesClientException("x", code, null)))
          .as("%d", code)
          .isTrue();
    }
    for (int code : new int[] {400, 403, 404, 410, 422}) {
      assertThat(ApiFailures.isTransient(new KubernetesClientException("x", code, null)))
          .as("%d", code)
          .isFalse();
    }
    assertThat(
            ApiFailures.isTransient(
                new KubernetesClientException("no answer", new IOException("reset"))))
        .isTrue();
    assertThat(
            ApiFailures.isTransient(
                new CompletionException(new KubernetesClientException("x", 429, null))))
        .as("wrapped")
        .isTrue();
    assertThat(ApiFailures.isTransient(new IllegalStateException("a bug"))).isFalse();
  }
}
