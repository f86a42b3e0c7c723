package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FloorTest {

  private static final List<Condition> QUIET =
      List.of(Condition.of("operator\\.converge_.*", "quiet_machine", true, "load 0.8 <= 3"));
  private static final List<Condition> BUSY =
      List.of(Condition.of("operator\\.converge_.*", "quiet_machine", false, "load 9.1 > 3"));

  private static Validity.Sample time(String label, String contender, double ms, boolean quiet) {
    return new Validity.Sample(
        new ResultLine("operator.converge_time." + label, contender, ms, "ms"),
        quiet ? QUIET : BUSY);
  }

  private static Validity.Sample writes(String label, double perSecond, boolean quiet) {
    return new Validity.Sample(
        new ResultLine("operator.converge_write_rate." + label, "floor", perSecond, "writes/s"),
        quiet ? QUIET : BUSY);
  }

  @Test
  void eachContendersThroughput_isAFractionOfTheFloors_withTheFloorsWriteRate() {
    List<Validity.Sample> samples =
        List.of(
            time("200", "floor", 900, true),
            time("200", "floor", 1000, true),
            time("200", "floor", 1100, true),
            time("200", "ours", 1250, true),
            time("200", "josdk", 2500, true),
            writes("200", 5000, true));

    List<Floor.Fraction> fractions = Floor.of(samples);

    assertThat(fractions).extracting(Floor.Fraction::contender).containsExactly("josdk", "ours");
    assertThat(fractions).allMatch(Floor.Fraction::valid);
    assertThat(fractions.get(0).fraction()).isEqualTo(0.4);
    assertThat(fractions.get(1).line())
        .isEqualTo(
            "operator.converge_floor.200[ours]: 0.80 of the floor (time=1250 ms, floor=1000 ms,"
                + " floor writes=5000 writes/s) goal >= 0.50 met");
    assertThat(fractions.get(0).met()).as("no goal for JOSDK's fraction").isEmpty();
    assertThat(Floor.markdown(fractions))
        .contains(
            "| operator.converge_time.200 | ours | 1250 | 1000 | 5000 writes/s | 0.80 | ≥ 0.50: yes |");
    assertThat(Report.verdict(Report.judge(samples), fractions)).contains("all 3 figures");
  }

  @Test
  void aFloorMeasuredOnABusyMachine_makesEveryFractionInvalid_andTheFloorIsNoPeer() {
    List<Validity.Sample> samples =
        List.of(
            time("200", "floor", 1000, false),
            time("200", "ours", 1250, true),
            time("200", "josdk", 2500, true),
            writes("200", 5000, false));

    List<Floor.Fraction> fractions = Floor.of(samples);

    assertThat(fractions).noneMatch(Floor.Fraction::valid);
    assertThat(fractions.get(1).line())
        .isEqualTo("operator.converge_floor.200[ours]: invalid (floor: load 9.1 > 3)")
        .doesNotContain("of the floor");
    assertThat(fractions.get(1).writes()).isEqualTo("invalid (floor: load 9.1 > 3)");
    assertThat(fractions.get(1).met()).as("an invalid fraction is not judged").isEmpty();
    List<Report.Judged> judged = Report.judge(samples);
    assertThat(judged).extracting(j -> j.c().peer()).containsExactly("josdk");
    assertThat(Report.verdict(judged, fractions)).contains("2 of 3 figures INVALID");
  }

  @Test
  void sizesAndLatencies_eachHaveTheirOwnFloor_andNoFloorMeansNoFractions() {
    List<Validity.Sample> samples = new ArrayList<>();
    samples.add(time("200", "floor", 1000, true));
    samples.add(time("200", "ours", 2000, true));
    samples.add(time("200@5ms", "floor", 3000, true));
    samples.add(time("200@5ms", "ours", 4000, true));
    samples.add(time("1000", "ours", 9000, true));

    List<Floor.Fraction> fractions = Floor.of(samples);

    assertThat(fractions)
        .extracting(Floor.Fraction::label, Floor.Fraction::fraction)
        .containsExactly(tuple("200", 0.5), tuple("200@5ms", 0.75));
    assertThat(fractions.get(0).writes()).isEqualTo("not measured");
    assertThat(fractions.get(0).line()).endsWith("goal >= 0.50 met");
    assertThat(fractions.get(1).met()).contains(true);
    assertThat(
            Floor.of(List.of(time("200", "floor", 1000, true), time("200", "ours", 2500, true)))
                .get(0)
                .line())
        .endsWith(
            "0.40 of the floor (time=2500 ms, floor=1000 ms, floor writes=not measured)"
                + " goal >= 0.50 missed");
    assertThat(Floor.of(List.of(time("200", "ours", 2000, true)))).isEmpty();
    assertThat(Floor.markdown(List.of())).isEmpty();
  }
}
