package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCountsTest {

  private static final String OPERATOR = "podset-operator/0.1.0";
  private static final String KCM = "kube-controller-manager/v1.34.4 (linux/amd64) kubernetes/x";

  @TempDir Path dir;

  private static String event(String userAgent, String verb, String resource, String name) {
    return String.format(
        "{\"stage\":\"ResponseComplete\",\"verb\":\"%s\",\"userAgent\":\"%s\","
            + "\"objectRef\":{\"resource\":\"%s\",\"namespace\":\"bench\",\"name\":\"%s\"}}",
        verb, userAgent, resource, name);
  }

  @Test
  void requests_countsOnlyTheContendersUserAgent_notItsNameElsewhereInTheLine() throws Exception {
    Path log = dir.resolve("audit.log");
    Files.write(
        log,
        List.of(
            event(OPERATOR, "create", "pods", "a"),
            event(OPERATOR, "patch", "podsets", "a"),
            // Another agent writing about an object whose name holds the contender's user agent.
            event("kwok/v0.8.0", "patch", "pods", "podset-operator-pod"),
            "not json podset-operator"));
    AuditCounts.Counter counter = AuditCounts.userAgentContaining(log, "podset-operator");

    assertThat(counter.requests()).isEqualTo(2);
    assertThat(counter.between(new AuditCounts.Mark(0), AuditCounts.mark(log)))
        .isEqualTo(Map.of("create pods", 1, "patch podsets", 1));
  }

  @Test
  void requests_readsOnlyWhatWasAppended_andALineOnlyOnceItIsComplete() throws Exception {
    Path log = dir.resolve("audit.log");
    AuditCounts.Counter counter = AuditCounts.userAgentContaining(log, "podset-operator");
    assertThat(counter.requests()).isZero();

    Files.writeString(log, event(OPERATOR, "create", "pods", "a") + "\n");
    String second = event(OPERATOR, "create", "pods", "b");
    // The audit backend is halfway through writing the second line.
    Files.writeString(log, second.substring(0, 40), StandardOpenOption.APPEND);
    assertThat(counter.requests()).isEqualTo(1);

    Files.writeString(log, second.substring(40) + "\n", StandardOpenOption.APPEND);
    assertThat(counter.requests()).isEqualTo(2);
    assertThat(counter.requests()).isEqualTo(2);
  }

  @Test
  void requests_leaveOutTheContendersLagProbes_whichNeverStop() throws Exception {
    Path log = dir.resolve("audit.log");
    String probe =
        "{\"stage\":\"ResponseComplete\",\"verb\":\"list\",\"userAgent\":\"%s\","
            + "\"requestURI\":\"%s\",\"objectRef\":{\"resource\":\"pods\"}}";
    Files.write(
        log,
        List.of(
            String.format(probe, OPERATOR, "/api/v1/pods?limit=1"),
            String.format(probe, OPERATOR, "/apis/app.example.com/v1alpha1/podsets?limit=1"),
            // The informer's own list is work of the phase.
            String.format(probe, OPERATOR, "/api/v1/pods?limit=500&resourceVersion=0"),
            event(OPERATOR, "create", "pods", "a")));
    AuditCounts.Counter counter = AuditCounts.userAgentContaining(log, "podset-operator");

    assertThat(counter.requests()).isEqualTo(2);
    // The table still counts them: they are the contender's requests.
    assertThat(counter.between(new AuditCounts.Mark(0), AuditCounts.mark(log)))
        .isEqualTo(Map.of("list pods", 3, "create pods", 1));
  }

  @Test
  void watchOrListSeen_needsAWatchOrListOfThatResourceByThatAgent() throws Exception {
    Path log = dir.resolve("audit.log");
    Files.write(
        log,
        List.of(
            event(KCM, "get", "podsets", "a"),
            event(KCM, "watch", "pods", ""),
            event(OPERATOR, "watch", "podsets", "")));

    BooleanSupplier seen = AuditCounts.watchOrListSeen(log, "kube-controller-manager", "podsets");
    assertThat(seen.getAsBoolean()).isFalse();

    Files.writeString(log, event(KCM, "watch", "podsets", "") + "\n", StandardOpenOption.APPEND);
    assertThat(seen.getAsBoolean()).isTrue();
    Files.writeString(log, event(KCM, "get", "podsets", "b") + "\n", StandardOpenOption.APPEND);
    assertThat(seen.getAsBoolean()).isTrue();
  }

  @Test
  void awaitSettled_returnsWhileOtherAgentsKeepWriting() throws Exception {
    // The cluster never falls silent (kwok's leases, the controllers' work): a wait for the whole
    // log to stop growing timed out; only the contender's requests must settle.
    Path log = dir.resolve("audit.log");
    Files.writeString(log, event(OPERATOR, "create", "pods", "a") + "\n");
    ScheduledExecutorService others = Executors.newSingleThreadScheduledExecutor();
    try {
      others.scheduleAtFixedRate(
          () -> {
            try {
              Files.writeString(
                  log,
                  event("kwok/v0.8.0", "update", "leases", "node") + "\n",
                  StandardOpenOption.APPEND);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          },
          0,
          100,
          TimeUnit.MILLISECONDS);
      long start = System.nanoTime();

      Phase.awaitSettled(AuditCounts.userAgentContaining(log, "podset-operator"));

      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isGreaterThanOrEqualTo(Phase.SETTLED_FOR);
    } finally {
      others.shutdownNow();
      others.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
