package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RelistLimiterTest {

  private final ManualClock clock = new ManualClock();
  private final RelistLimiter limiter = new RelistLimiter(clock, 3, Duration.ofSeconds(5));

  @Test
  void firstList_isFree_thenABurst_thenOneTokenPerInterval() {
    assertThat(limiter.reserve()).isZero(); // the first list
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.reserve()).isZero();
    }

    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(5));
    clock.advance(Duration.ofSeconds(5));
    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void tokens_comeBackWithTime_partialIntervalsCarried_upToTheBurst() {
    limiter.reserve();
    for (int i = 0; i < 3; i++) {
      limiter.reserve();
    }
    clock.advance(Duration.ofSeconds(12)); // two tokens back (at 5 s and 10 s), 2 s towards a third

    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(3));

    clock.advance(Duration.ofMinutes(10));
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.reserve()).isZero();
    }
    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void interval_isTenTimesTheLastList_betweenAFifthOfTheBoundAndTheBound() {
    assertThat(limiter.interval()).as("before a list was timed").isEqualTo(Duration.ofSeconds(5));

    limiter.listTook(Duration.ofMillis(20));
    assertThat(limiter.interval())
        .as("a cheap list: a fifth of the bound")
        .isEqualTo(Duration.ofSeconds(1));
    limiter.listTook(Duration.ofMillis(300));
    assertThat(limiter.interval()).isEqualTo(Duration.ofSeconds(3));
    limiter.listTook(Duration.ofSeconds(2));
    assertThat(limiter.interval()).as("a costly list: the bound").isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void cheapLists_areRelistedEverySecond_onceTheBurstIsSpent() {
    limiter.reserve(); // the first list
    limiter.listTook(Duration.ofMillis(30));
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.reserve()).isZero();
    }

    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    assertThat(limiter.reserve()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void noBound_staysNoBound_whateverTheListsTake() {
    RelistLimiter unbounded = new RelistLimiter(clock, 1, Duration.ZERO);
    unbounded.reserve();
    unbounded.listTook(Duration.ofSeconds(3));

    for (int i = 0; i < 5; i++) {
      assertThat(unbounded.reserve()).isZero();
    }
  }

  @Test
  void badArguments_areRefusedNamingTheValue() {
    assertThatThrownBy(() -> new RelistLimiter(clock, 0, Duration.ofSeconds(1)))
        .hasMessageContaining("burst must be positive: 0");
    assertThatThrownBy(() -> new RelistLimiter(clock, 1, Duration.ofSeconds(-1)))
        .hasMessageContaining("interval must not be negative: PT-1S");
  }
}
