package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidityTest {

  private static final String P99 = "operator.latency_p99.1k";

  private static List<Condition> serverAt(double p99Ms, double achievedRate) {
    String scope = "operator\\.latency_.*\\.1k";
    return List.of(
        Condition.of(scope, "server_rate", achievedRate >= 950, achievedRate + "/s of 1000/s"),
        Condition.of(scope, "server_round_trip", p99Ms <= 10, "server p99 " + p99Ms + " ms"),
        Condition.of(".*", "quiet_machine", true, "load 0.4"));
  }

  private static Validity.Sample latency(String contender, double value, List<Condition> at) {
    return new Validity.Sample(new ResultLine(P99, contender, value, "ms"), at);
  }

  @Test
  void saturatedServer_makesTheLatencyFigureInvalid_withTheServersRoundTripAsReason() {
    List<Validity.Sample> samples =
        List.of(latency("ours", 650, serverAt(343, 1000)), latency("josdk", 59, serverAt(4, 1000)));

    List<Report.Judged> judged = Report.judge(samples);

    assertThat(judged).hasSize(1);
    assertThat(judged.get(0).valid()).isFalse();
    assertThat(judged.get(0).line())
        .isEqualTo("operator.latency_p99.1k[josdk]: invalid (ours: server p99 343.0 ms)")
        .doesNotContain("ratio");
    assertThat(Report.verdict(judged)).contains("1 of 1 figures INVALID");
  }

  @Test
  void rateNotSustained_orNoCheckAtAll_isInvalid_too() {
    assertThat(
            Validity.reasons(
                P99,
                "josdk",
                List.of(
                    latency("ours", 5, serverAt(3, 1000)), latency("josdk", 6, serverAt(3, 610)))))
        .containsExactly("josdk: 610.0/s of 1000/s");
    assertThat(
            Validity.reasons(
                P99,
                "josdk",
                List.of(latency("ours", 5, List.of()), latency("josdk", 6, List.of()))))
        .containsExactly(
            "server_rate not checked",
            "server_round_trip not checked",
            "quiet_machine not checked");
  }

  @Test
  void conditionsMet_giveTheRatio() {
    List<Report.Judged> judged =
        Report.judge(
            List.of(latency("ours", 5, serverAt(3, 1000)), latency("josdk", 10, serverAt(4, 990))));

    assertThat(judged.get(0).valid()).isTrue();
    assertThat(judged.get(0).line()).contains("ratio=2.00");
    assertThat(Report.verdict(judged)).contains("all 1 figures");
  }

  @Test
  void memoryFigures_needNoConditions_timingFiguresOnALoadedMachine_areInvalid() {
    Condition loaded = Condition.of("informer\\..*", "quiet_machine", false, "load 14.2 > 3.0");
    Condition warmed = Condition.of("informer\\..*", "server_warmed", true, "untimed lists");
    Condition rotated = Condition.of("informer\\..*", "order_rotated", true, "3 repeats");
    List<Condition> at = List.of(loaded, warmed, rotated);
    List<Validity.Sample> samples =
        List.of(
            new Validity.Sample(
                new ResultLine("informer.retained_per_object.10k", "ours", 11000, "B/object"), at),
            new Validity.Sample(
                new ResultLine(
                    "informer.retained_per_object.10k", "fabric8-jdk", 25000, "B/object"),
                at),
            new Validity.Sample(new ResultLine("informer.sync_time.10k", "ours", 7000, "ms"), at),
            new Validity.Sample(
                new ResultLine("informer.sync_time.10k", "fabric8-jdk", 5000, "ms"), at));

    List<Report.Judged> judged = Report.judge(samples);

    assertThat(judged)
        .extracting(Report.Judged::line)
        .containsExactly(
            "informer.retained_per_object.10k[fabric8-jdk]: ours=11000 peer=25000 ratio=2.27"
                + " unit=B/object",
            "informer.sync_time.10k[fabric8-jdk]: invalid (ours: load 14.2 > 3.0; fabric8-jdk:"
                + " load 14.2 > 3.0)");
  }

  @Test
  void read_appliesAFilesConditionsToItsFigures_andTheRunFilesToAll(@TempDir Path raw)
      throws IOException {
    Files.write(
        raw.resolve("contender-latency-ours-1.txt"),
        List.of(
            new ResultLine(P99, "ours", 5, "ms").format(),
            Condition.of("operator\\.latency_.*\\.1k", "server_round_trip", false, "p99 80 ms")
                .format(),
            Condition.of("operator\\.latency_.*\\.1k", "server_rate", true, "1000/s").format()));
    Files.write(
        raw.resolve("contender-latency-josdk-2.txt"),
        List.of(
            new ResultLine(P99, "josdk", 6, "ms").format(),
            Condition.of("operator\\.latency_.*\\.1k", "server_round_trip", true, "p99 3 ms")
                .format(),
            Condition.of("operator\\.latency_.*\\.1k", "server_rate", true, "1000/s").format()));
    Files.write(
        raw.resolve(Condition.RUN_FILE),
        List.of(Condition.of("operator\\..*", "quiet_machine", true, "load 0.5").format()));

    List<Report.Judged> judged = Report.judge(Report.read(raw));

    assertThat(judged.get(0).reasons()).containsExactly("ours: p99 80 ms");
    String markdown = Report.markdown("quick", "", judged, List.of());
    assertThat(markdown)
        .contains("1 of 1 figures INVALID")
        .contains("| invalid | ≥ 2.0 | invalid (ours: p99 80 ms) |");
  }

  /**
   * One informer run's file as run.sh and InformerSync write it: the fresh sync's time, the warm
   * rate, run.sh's conditions (the others' CPU scoped to the warm figure) and InformerSync's {@code
   * client_warm} for its figure only.
   */
  private static void informerRun(
      Path raw, String contender, double rate, boolean settled, boolean othersOff)
      throws IOException {
    String warm = "informer.warm_sync_rate.10k";
    Files.write(
        raw.resolve("informer-10k-1-" + contender + ".txt"),
        List.of(
            Condition.of("informer\\..*", "server_warmed", true, "untimed lists").format(),
            Condition.of("informer\\..*", "order_rotated", true, "3 repeats").format(),
            Condition.of("informer\\..*", "quiet_machine", true, "load average 0.4").format(),
            new ResultLine("informer.sync_time.10k", contender, 5000, "ms").format(),
            new ResultLine(warm, contender, rate, "objects/s").format(),
            Condition.of(
                    Pattern.quote(warm),
                    "client_warm",
                    settled,
                    settled ? "settled after 4 warm-up rounds" : "not settled after 10")
                .format(),
            Condition.of(
                    "informer\\.warm_sync_rate\\..*",
                    "quiet_machine",
                    othersOff,
                    othersOff ? "others used 0.02 CPUs" : "machine busy: others used 0.9 CPUs")
                .format()));
  }

  @Test
  void warmSyncRate_needsSettledRounds_andTheOthersOffTheCpus_theFreshSyncDoesNot(@TempDir Path raw)
      throws IOException {
    informerRun(raw, "ours", 30_000, true, true);
    informerRun(raw, "fabric8-jdk", 15_000, true, true);
    informerRun(raw, "fabric8-okhttp", 20_000, false, true);
    informerRun(raw, "fabric8-vertx", 10_000, true, false);

    List<Report.Judged> judged = Report.judge(Report.read(raw));

    assertThat(judged)
        .extracting(Report.Judged::line)
        .containsExactly(
            "informer.sync_time.10k[fabric8-jdk]: ours=5000 peer=5000 ratio=1.00 unit=ms",
            "informer.sync_time.10k[fabric8-okhttp]: ours=5000 peer=5000 ratio=1.00 unit=ms",
            "informer.sync_time.10k[fabric8-vertx]: ours=5000 peer=5000 ratio=1.00 unit=ms",
            "informer.warm_sync_rate.10k[fabric8-jdk]: ours=30000 peer=15000 ratio=2.00"
                + " unit=objects/s",
            "informer.warm_sync_rate.10k[fabric8-okhttp]: invalid (fabric8-okhttp: not settled"
                + " after 10)",
            "informer.warm_sync_rate.10k[fabric8-vertx]: invalid (fabric8-vertx: machine busy:"
                + " others used 0.9 CPUs)");
    assertThat(
            Validity.reasons(
                "informer.warm_sync_rate.10k",
                "fabric8-jdk",
                List.of(
                    new Validity.Sample(
                        new ResultLine("informer.warm_sync_rate.10k", "ours", 1, "objects/s"),
                        List.of()))))
        .containsExactly(
            "server_warmed not checked",
            "order_rotated not checked",
            "quiet_machine not checked",
            "client_warm not checked");
  }

  @Test
  void conditionLines_roundTrip_andMalformedOnesAreRefused() {
    Condition c = Condition.of("informer\\..*", "order_rotated", false, "1 repeat: not rotated");

    assertThat(Condition.parse(c.format()))
        .hasValueSatisfying(
            p -> {
              assertThat(p.name()).isEqualTo("order_rotated");
              assertThat(p.holds()).isFalse();
              assertThat(p.detail()).isEqualTo("1 repeat: not rotated");
              assertThat(p.appliesTo("informer.sync_time.10k")).isTrue();
            });
    assertThat(Condition.parse("RESULT x ours 1 ms")).isEmpty();
    assertThatThrownBy(() -> Condition.parse("CONDITION informer\\..* order_rotated maybe"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
