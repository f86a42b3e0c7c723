package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PassingFailuresTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration GRACE = Duration.ofSeconds(5);

  private final PassingFailures<String> failures = new PassingFailures<>(GRACE);

  private static ReplicaFailure answered(int code) {
    return new ReplicaFailure(
        ReplicaFailure.FAILED_CREATE,
        "cannot create pods",
        new KubernetesClientException("x", code, null));
  }

  @Test
  void transientFailure_heldBackForTheGrace_thenShown() {
    for (int code : new int[] {409, 429, 500, 503}) {
      String key = "ns/web-" + code;
      assertThat(failures.showNow(key, answered(code), T0)).as("%d at once", code).isFalse();
      assertThat(failures.showNow(key, answered(code), T0.plus(GRACE).minusMillis(1)))
          .as("%d just before the grace ends", code)
          .isFalse();
      assertThat(failures.showNow(key, answered(code), T0.plus(GRACE)))
          .as("%d after the grace", code)
          .isTrue();
    }
  }

  @Test
  void failureARetryDoesNotCure_isShownAtOnce() {
    assertThat(failures.showNow("ns/quota", answered(403), T0)).isTrue();
    assertThat(failures.showNow("ns/invalid", answered(422), T0)).isTrue();
    assertThat(
            failures.showNow(
                "ns/spec", new ReplicaFailure(ReplicaFailure.INVALID_SPEC, "no containers"), T0))
        .isTrue();
  }

  @Test
  void cleanPass_startsTheGraceOver_perPodSet() {
    failures.showNow("ns/a", answered(429), T0);
    failures.showNow("ns/b", answered(429), T0);
    failures.forget("ns/a");

    Instant later = T0.plus(GRACE).plusSeconds(1);
    assertThat(failures.showNow("ns/a", answered(429), later)).isFalse();
    assertThat(failures.showNow("ns/b", answered(429), later)).isTrue();
  }

  @Test
  void concurrentFailuresOfOnePodSet_shareOneStart() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Instant at = T0.plusMillis(i);
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return failures.showNow("ns/web", answered(503), at);
                }));
      }
      start.countDown();
      for (Future<Boolean> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS)).isFalse();
      }
      // Whichever thread came first set the start: at most 7 ms after T0.
      assertThat(failures.showNow("ns/web", answered(503), T0.plus(GRACE).plusMillis(7))).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }
}
