package io.podset.examples.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The obvious operator, written the obvious way, against a cache that lags: pod and ConfigMap
 * events arrive 300 ms late while websites change faster than that. On the typed API it must make
 * no duplicate create and no failed reconcile, and end exactly right, in every run; the same logic
 * on the raw API with the old README pattern is caught by the same checks (so they can fail).
 */
class StaleCacheStressIT {

  private static final Path CRD =
      Path.of("target/classes/META-INF/fabric8/websites.example.com-v1.yml");
  private static final int RUNS = Integer.getInteger("stress.runs", 50);
  private static final int RAW_RUNS = Integer.getInteger("stress.rawRuns", 5);

  @Test
  void typedReconciler_withLaggingCaches_neverDuplicatesNorFails_andEndsExact() throws Exception {
    List<String> failures = new ArrayList<>();
    for (int run = 1; run <= RUNS; run++) {
      StressRun.Outcome outcome = StressRun.run(CRD, NaiveTypedReconciler::register);
      if (!outcome.clean()) {
        failures.add("run " + run + ": " + outcome);
      }
    }
    System.out.printf("typed: %d of %d runs clean%n", RUNS - failures.size(), RUNS);
    assertThat(failures).isEmpty();
  }

  @Test
  void rawReconcilerWithTheOldReadmePattern_isCaughtByTheSameChecks() throws Exception {
    int caught = 0;
    List<StressRun.Outcome> outcomes = new ArrayList<>();
    for (int run = 1; run <= RAW_RUNS; run++) {
      StressRun.Outcome outcome = StressRun.run(CRD, NaiveRawReconciler::register);
      outcomes.add(outcome);
      if (!outcome.clean()) {
        caught++;
      }
    }
    System.out.printf("raw: %d of %d runs caught: %s%n", caught, RAW_RUNS, outcomes);
    assertThat(caught).as("runs of the raw pattern the checks caught").isPositive();
  }
}
