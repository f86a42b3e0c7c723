package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConvergeServerTest {

  @Test
  void requestLatency_delaysEveryResourceRequest_butNotTheOpeningOfAWatch() {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.faults().add(ConvergeServer.requestLatency(150));

      server.client().configMaps().inNamespace("default").list();
      try (Watch watch =
          server
              .client()
              .configMaps()
              .inNamespace("default")
              .watch(
                  new Watcher<ConfigMap>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {}

                    @Override
                    public void onClose(WatcherException cause) {}
                  })) {
        Eventually.within(Duration.ofSeconds(30))
            .until(
                "the watch in the journal",
                () -> server.journal().records().stream().anyMatch(r -> r.verb().equals("watch")));
      }

      List<RequestRecord> records = server.journal().records();
      RequestRecord list = records.stream().filter(r -> r.verb().equals("list")).findFirst().get();
      RequestRecord watch =
          records.stream().filter(r -> r.verb().equals("watch")).findFirst().get();
      assertThat(list.fault()).isEqualTo("latency 150 ms");
      assertThat(list.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
      assertThat(watch.fault()).isNull();
    }
  }

  @Test
  void writeRate_countsWritesOnly_fromTheFirstToTheLast() {
    Instant t0 = Instant.parse("2026-12-01T20:00:00Z");
    List<RequestRecord> calls =
        List.of(
            record(1, t0.minusSeconds(5), "get"),
            record(2, t0, "create"),
            record(3, t0.plusMillis(500), "patch"),
            record(4, t0.plusMillis(700), "list"),
            record(5, t0.plusSeconds(2), "create"),
            record(6, t0.plusSeconds(9), "watch"));

    // 3 writes, 2 intervals in 2 s.
    assertThat(ConvergeServer.writeRate(calls)).isEqualTo(1.0);
    assertThat(ConvergeServer.writeRate(calls.subList(0, 2))).isZero();
  }

  @Test
  void figuresOfARunWithLatency_carryItInTheirLabel() {
    assertThat(ConvergeServer.label(200, 0)).isEqualTo(".200");
    assertThat(ConvergeServer.label(200, 5)).isEqualTo(".200@5ms");
  }

  private static RequestRecord record(long sequence, Instant time, String verb) {
    return new RequestRecord(
        sequence,
        time,
        verb,
        "POST",
        "/api/v1/namespaces/converge-0/pods",
        "",
        "",
        "pods",
        null,
        "converge-0",
        null,
        "fabric8",
        null,
        201,
        Duration.ofMillis(1),
        null);
  }
}
