package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CacheLagTest {

  private static final long SECOND = 1_000_000_000L;

  private final AtomicReference<String> applied = new AtomicReference<>();
  private final CacheLag lag = new CacheLag(applied::get);

  @Test
  void unknownBeforeTheFirstSample_andNonNumericVersionsAreNotSamples() {
    assertThat(lag.lag(0)).isNull();
    lag.sampled("abc", 0);
    assertThat(lag.lag(0)).isNull();
  }

  @Test
  void lag_countsFromTheOldestSampleNotCaughtUpWith() {
    applied.set("5");
    lag.sampled("10", 1 * SECOND);
    lag.sampled("20", 2 * SECOND);

    assertThat(lag.lag(4 * SECOND)).isEqualTo(Duration.ofSeconds(3));
    applied.set("12");
    assertThat(lag.lag(4 * SECOND)).isEqualTo(Duration.ofSeconds(2));
    applied.set("20");
    assertThat(lag.lag(4 * SECOND)).isZero();
  }

  @Test
  void aSampleTheCacheAlreadyHas_orNoNewerThanThePendingOne_addsNothing() {
    applied.set("10");
    lag.sampled("10", SECOND);
    assertThat(lag.lag(5 * SECOND)).isZero();

    lag.sampled("15", 2 * SECOND);
    lag.sampled("15", 3 * SECOND);
    assertThat(lag.lag(5 * SECOND)).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void beyondTheCapacity_theNewestPendingSampleIsReplaced_theOldestKept() {
    applied.set("0");
    for (int i = 1; i <= CacheLag.MAX_PENDING + 10; i++) {
      lag.sampled(String.valueOf(i), i * SECOND);
    }

    assertThat(lag.lag((CacheLag.MAX_PENDING + 20) * SECOND))
        .isEqualTo(Duration.ofSeconds(CacheLag.MAX_PENDING + 19));
  }
}
