package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitersTest {

  private final ManualClock clock = new ManualClock();

  @Test
  void exponential_doublesPerRetryOfAKey_andCapsAtMax() {
    RateLimiter<String> limiter = RateLimiters.exponential();

    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(20));
    for (int i = 3; i <= 17; i++) {
      assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5L << i));
    }
    // 5 ms * 2^18 = 1310.72 s > 1000 s
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
    }
    assertThat(limiter.numRequeues("a")).isEqualTo(119);
  }

  @Test
  void exponential_isPerKey_andForgetResets() {
    RateLimiter<String> limiter =
        RateLimiters.exponential(Duration.ofMillis(1), Duration.ofSeconds(1));
    limiter.when("a");
    limiter.when("a");

    assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(1));
    assertThat(limiter.numRequeues("a")).isEqualTo(2);
    assertThat(limiter.numRequeues("b")).isEqualTo(1);

    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void exponential_withHugeMax_neverOverflows() {
    RateLimiter<String> limiter =
        RateLimiters.exponential(Duration.ofNanos(3), Duration.ofSeconds(Long.MAX_VALUE));
    Duration previous = Duration.ZERO;
    for (int i = 0; i < 200; i++) {
      Duration delay = limiter.when("a");
      assertThat(delay).isGreaterThanOrEqualTo(previous);
      previous = delay;
    }
    assertThat(previous).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
  }

  @Test
  void exponential_rejectsBadArguments() {
    assertThatThrownBy(() -> RateLimiters.exponential(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("base")
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> RateLimiters.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max")
        .hasMessageContaining("PT1S");
    assertThatThrownBy(() -> RateLimiters.exponential(null, Duration.ofSeconds(1)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("base");
  }

  @Test
  void bucket_allowsTheBurstThenSpacesRetriesAtQps() {
    RateLimiter<String> limiter = RateLimiters.bucket(10, 3, clock);

    assertThat(limiter.when("a")).isZero();
    assertThat(limiter.when("b")).isZero();
    assertThat(limiter.when("c")).isZero();
    assertThat(limiter.when("d")).isEqualTo(Duration.ofMillis(100));
    assertThat(limiter.when("e")).isEqualTo(Duration.ofMillis(200));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void bucket_refillsOverTimeUpToTheBurst() {
    RateLimiter<String> limiter = RateLimiters.bucket(10, 2, clock);
    limiter.when("a");
    limiter.when("a");
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));

    clock.advance(Duration.ofMillis(100));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));

    clock.advance(Duration.ofSeconds(60));
    assertThat(limiter.when("a")).isZero();
    assertThat(limiter.when("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void bucket_keepsNoPerKeyHistory() {
    RateLimiter<String> limiter = RateLimiters.bucket(1, 1, clock);
    limiter.when("a");
    limiter.when("a");

    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void bucket_rejectsBadArguments() {
    assertThatThrownBy(() -> RateLimiters.bucket(0, 1, clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("qps");
    assertThatThrownBy(() -> RateLimiters.bucket(Double.NaN, 1, clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NaN");
    assertThatThrownBy(() -> RateLimiters.bucket(Double.POSITIVE_INFINITY, 1, clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("qps");
    assertThatThrownBy(() -> RateLimiters.bucket(1, 0, clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> RateLimiters.bucket(1, 1, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("clock");
  }

  @Test
  void max_returnsTheLongestDelay_andRecordsInEveryLimiter() {
    RateLimiter<String> fast =
        RateLimiters.fastSlow(Duration.ofMillis(1), Duration.ofSeconds(9), 1);
    RateLimiter<String> exponential =
        RateLimiters.exponential(Duration.ofMillis(10), Duration.ofSeconds(100));
    RateLimiter<String> limiter = RateLimiters.max(fast, exponential);

    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(9));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(9));
    assertThat(fast.numRequeues("a")).isEqualTo(3);
    assertThat(exponential.numRequeues("a")).isEqualTo(3);
    assertThat(limiter.numRequeues("a")).isEqualTo(3);

    limiter.forget("a");

    assertThat(fast.numRequeues("a")).isZero();
    assertThat(exponential.numRequeues("a")).isZero();
  }

  @Test
  void max_reportsTheLargestRequeueCount() {
    RateLimiter<String> bucket = RateLimiters.bucket(1, 1, clock);
    RateLimiter<String> exponential = RateLimiters.exponential();
    exponential.when("a");
    exponential.when("a");

    assertThat(RateLimiters.max(bucket, exponential).numRequeues("a")).isEqualTo(2);
  }

  @Test
  @SuppressWarnings("unchecked")
  void max_rejectsBadArguments() {
    assertThatThrownBy(() -> RateLimiters.<String>max())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limiters");
    assertThatThrownBy(() -> RateLimiters.max(RateLimiters.<String>exponential(), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("limiters[1]");
  }

  @Test
  void fastSlow_usesFastDelayForTheFirstAttemptsOfAKey() {
    RateLimiter<String> limiter =
        RateLimiters.fastSlow(Duration.ofMillis(5), Duration.ofSeconds(10), 2);

    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(10));
    assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.numRequeues("a")).isEqualTo(3);

    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void fastSlow_rejectsBadArguments() {
    assertThatThrownBy(() -> RateLimiters.fastSlow(Duration.ofMillis(-1), Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fast");
    assertThatThrownBy(() -> RateLimiters.fastSlow(Duration.ZERO, Duration.ofMillis(-1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slow");
    assertThatThrownBy(() -> RateLimiters.fastSlow(Duration.ZERO, Duration.ZERO, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxFastAttempts")
        .hasMessageContaining("-1");
  }

  @Test
  void defaultControllerRateLimiter_isMaxOfExponentialAndBucket() {
    RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);

    // Per key: 5 ms, 10 ms, 20 ms while the overall bucket (burst 100) has tokens.
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(20));
    for (int i = 0; i < 97; i++) {
      assertThat(limiter.when("k" + i)).isEqualTo(Duration.ofMillis(5));
    }
    // The bucket is empty: 10 qps now dominates a fresh key's 5 ms.
    assertThat(limiter.when("fresh")).isEqualTo(Duration.ofMillis(100));
    assertThat(limiter.when("other")).isEqualTo(Duration.ofMillis(200));
    assertThat(limiter.numRequeues("a")).isEqualTo(3);
  }
}
