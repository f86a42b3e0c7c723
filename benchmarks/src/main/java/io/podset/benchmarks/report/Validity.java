package io.podset.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which conditions each figure needs, and whether its samples met them: a timing figure measured
 * while the machine was busy with other work, or while the server itself was saturated, says
 * nothing about the contenders, so the report prints it as {@code invalid (reason)} instead of a
 * ratio.
 *
 * <p>Needs ({@link #NEEDS}): latency figures need the server to have sustained the asked rate
 * ({@code server_rate}) with its own update round trip below a bound ({@code server_round_trip});
 * informer sync figures need a server warmed by untimed lists ({@code server_warmed}) and an order
 * rotated between repeats ({@code order_rotated}), and the warm JVM's sync rate its rounds to have
 * settled ({@code client_warm}); every timing figure needs a quiet machine ({@code quiet_machine}:
 * no other load than the benchmark's). Memory and count figures (retained bytes, peak heap,
 * allocations, API calls, conflicts) need nothing. A needed condition that no harness checked makes
 * the figure invalid too.
 */
public final class Validity {

  /** Figures (regular expression over whole names) and the conditions they need. */
  record Need(Pattern figures, List<String> conditions) {
    static Need of(String figures, String... conditions) {
      return new Need(Pattern.compile(figures), List.of(conditions));
    }
  }

  static final List<Need> NEEDS =
      List.of(
          Need.of("operator\\.latency_.*", "server_rate", "server_round_trip", "quiet_machine"),
          Need.of(
              "informer\\.sync_(time|cpu)\\..*", "server_warmed", "order_rotated", "quiet_machine"),
          // The steady state also needs its rounds to have settled in the warm JVM.
          Need.of(
              "informer\\.warm_sync_rate\\..*",
              "server_warmed",
              "order_rotated",
              "quiet_machine",
              "client_warm"),
          Need.of("informer\\.operator_sync_(time|cpu)\\..*", "server_warmed", "quiet_machine"),
          Need.of("operator\\.converge_(time|cpu|write_rate)\\..*", "quiet_machine"),
          Need.of("workqueue\\.(?!.*\\.alloc$).*", "quiet_machine"),
          // The server's heap per stored object and its allocation per write are memory: they
          // need nothing.
          Need.of(
              "apiserver\\.(?!stored_per_object\\.|watched_heap_per_object|write_alloc\\.).*",
              "quiet_machine"));

  /** One measured value with the conditions checked where it was measured. */
  public record Sample(ResultLine result, List<Condition> conditions) {
    /** Keeps the conditions that apply to the result's figure. */
    public Sample {
      Objects.requireNonNull(result, "result");
      conditions = conditions.stream().filter(c -> c.appliesTo(result.figure())).toList();
    }
  }

  private Validity() {}

  /** The conditions {@code figure} needs; empty for figures that need none. */
  static List<String> needs(String figure) {
    Set<String> out = new LinkedHashSet<>();
    for (Need need : NEEDS) {
      if (need.figures().matcher(figure).matches()) {
        out.addAll(need.conditions());
      }
    }
    return List.copyOf(out);
  }

  /**
   * Why the comparison of {@code figure} between ours and {@code peer} is invalid: for each needed
   * condition and side, the first violation among its samples (and how many more), or that nobody
   * checked it; empty when valid.
   */
  public static List<String> reasons(String figure, String peer, List<Sample> samples) {
    return reasons(figure, List.of("ours", peer), samples);
  }

  /**
   * Why the samples of {@code figure} measured for {@code sides} (contenders) are invalid, as
   * {@link #reasons(String, String, List)}; for figures without a peer, such as the scale
   * benchmark's.
   */
  public static List<String> reasons(String figure, List<String> sides, List<Sample> samples) {
    List<String> reasons = new ArrayList<>();
    for (String need : needs(figure)) {
      boolean unchecked = false;
      for (String side : sides) {
        List<String> violated = new ArrayList<>();
        for (Sample sample : samples) {
          if (!sample.result().figure().equals(figure)
              || !sample.result().contender().equals(side)) {
            continue;
          }
          List<Condition> checks =
              sample.conditions().stream().filter(c -> c.name().equals(need)).toList();
          unchecked |= checks.isEmpty();
          checks.stream().filter(c -> !c.holds()).forEach(c -> violated.add(c.detail()));
        }
        if (!violated.isEmpty()) {
          reasons.add(
              side
                  + ": "
                  + violated.get(0)
                  + (violated.size() > 1 ? " (" + (violated.size() - 1) + " more)" : ""));
        }
      }
      if (unchecked) {
        reasons.add(need + " not checked");
      }
    }
    return reasons;
  }
}
