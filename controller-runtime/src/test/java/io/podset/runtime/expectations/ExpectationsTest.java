package io.podset.runtime.expectations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.informer.ResourceVersions;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ExpectationsTest {

  private final ManualClock clock = new ManualClock();
  private final Expectations<String> expectations = Expectations.create(clock);

  @Test
  void unknownKey_isSatisfied() {
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void creations_satisfiedOnlyAfterEveryCreateIsObserved() {
    expectations.expectCreations("ns/a", 3);
    expectations.created("ns/a", "u1", "10");
    expectations.created("ns/a", "u2", "11");
    expectations.created("ns/a", "u3", "12");
    expectations.creationObserved("ns/a", "u1");
    expectations.creationObserved("ns/a", "u2");

    assertThat(expectations.satisfied("ns/a")).isFalse();
    assertThat(expectations.pendingCreations("ns/a")).isEqualTo(1);

    expectations.creationObserved("ns/a", "u3");
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void failedCreate_lowersTheExpectation() {
    expectations.expectCreations("ns/a", 2);
    expectations.created("ns/a", "u1", "10");
    expectations.creationFailed("ns/a");
    expectations.creationObserved("ns/a", "u1");

    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void creationObservedBeforeItsCreateIsReported_countsOnceReported() {
    expectations.expectCreations("ns/a", 2);
    expectations.creationObserved("ns/a", "u1");
    expectations.created("ns/a", "u1", "10");
    expectations.created("ns/a", "u2", "11");

    assertThat(expectations.pendingCreations("ns/a")).isEqualTo(1);
    expectations.creationObserved("ns/a", "u2");
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void lateEventsOfAPassMetByTheCacheVersion_doNotMeetTheNextPass() {
    // The handler runs behind the cache: the cache's version meets the first pass's creates
    // before their events reach the handler.
    expectations.expectCreations("ns/a", 2);
    expectations.created("ns/a", "u1", "10");
    expectations.created("ns/a", "u2", "11");
    assertThat(expectations.satisfied("ns/a", "11")).isTrue();
    expectations.expectCreations("ns/a", 1);
    expectations.created("ns/a", "u3", "12");

    expectations.creationObserved("ns/a", "u1");
    expectations.creationObserved("ns/a", "u2");

    assertThat(expectations.satisfied("ns/a", "11")).isFalse();
    assertThat(expectations.pendingCreations("ns/a")).isEqualTo(1);
    expectations.creationObserved("ns/a", "u3");
    assertThat(expectations.satisfied("ns/a", "11")).isTrue();
  }

  @Test
  void creationOfAnotherObjectUnderTheSameKey_isIgnored() {
    // A PodSet deleted and created again under its name: the old one's pods are not the new one's.
    expectations.expectCreations("ns/a", 1);
    expectations.created("ns/a", "new-1", "20");
    expectations.creationObserved("ns/a", "old-1");

    assertThat(expectations.satisfied("ns/a")).isFalse();
  }

  @Test
  void deletions_trackedByUid() {
    expectations.expectDeletions("ns/a", List.of("u1", "u2"));
    expectations.deleted("ns/a", "u1", "20");
    expectations.deleted("ns/a", "u2", "21");
    expectations.deletionObserved("ns/a", "u1");
    expectations.deletionObserved("ns/a", "u-other");

    assertThat(expectations.satisfied("ns/a")).isFalse();
    assertThat(expectations.pendingDeletions("ns/a")).containsExactly("u2");

    expectations.deletionObserved("ns/a", "u2");
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void failedDelete_lowersTheExpectation() {
    expectations.expectDeletions("ns/a", List.of("u1"));
    expectations.deletionFailed("ns/a", "u1");
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void cacheAtOrPastEveryWrite_satisfiesWithoutEvents() {
    expectations.expectCreations("ns/a", 2);
    expectations.created("ns/a", "u1", "10");
    expectations.created("ns/a", "u2", "15");

    assertThat(expectations.satisfied("ns/a", "14")).isFalse();
    assertThat(expectations.satisfied("ns/a", "15")).isTrue();
  }

  @Test
  void cacheCatchUp_doesNotCountWhileAWriteIsInFlight() {
    expectations.expectCreations("ns/a", 2);
    expectations.created("ns/a", "u1", "10");

    assertThat(expectations.satisfied("ns/a", "99")).isFalse();
  }

  @Test
  void cacheCatchUp_disabledByAWriteWithoutResourceVersion() {
    expectations.expectDeletions("ns/a", List.of("u1"));
    expectations.deleted("ns/a", "u1", null);

    assertThat(expectations.satisfied("ns/a", "99")).isFalse();
  }

  @Test
  void expectation_expiresAfterTtl() {
    expectations.expectCreations("ns/a", 1);
    clock.advance(Expectations.DEFAULT_TTL.minusSeconds(1));
    assertThat(expectations.satisfied("ns/a")).isFalse();

    clock.advance(Duration.ofSeconds(1));
    assertThat(expectations.satisfied("ns/a")).isTrue();
    assertThat(expectations.expiredCount()).isEqualTo(1);
  }

  @Test
  void expiry_isCountedInTheRegistry() {
    var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    Expectations<String> counted =
        Expectations.create(clock, Duration.ofMinutes(1), registry, "podset");
    counted.expectCreations("ns/a", 1);
    clock.advance(Duration.ofMinutes(1));

    assertThat(counted.satisfied("ns/a")).isTrue();
    assertThat(registry.get("expectations_expired").tag("name", "podset").counter().count())
        .isEqualTo(1);
  }

  @Test
  void invalidTtl_withARegistry_isRefusedBeforeAnyMeterIsRegistered() {
    var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();

    assertThatThrownBy(() -> Expectations.create(clock, Duration.ZERO, registry, "podset"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl must be positive");
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void keysAreIndependent() {
    expectations.expectCreations("ns/a", 1);
    assertThat(expectations.satisfied("ns/b")).isTrue();
    assertThat(expectations.satisfied("ns/a")).isFalse();
  }

  @Test
  void forget_dropsThePendingState() {
    expectations.expectCreations("ns/a", 5);
    expectations.forget("ns/a");
    assertThat(expectations.satisfied("ns/a")).isTrue();
  }

  @Test
  void badArguments_nameTheValue() {
    assertThatThrownBy(() -> expectations.expectCreations("ns/a", -1)).hasMessageContaining("-1");
    assertThatThrownBy(() -> Expectations.create(clock, Duration.ZERO)).hasMessageContaining("ttl");
  }

  @Test
  void resourceVersionsOfAnyLength_areCompared() {
    // 20 digits: more than a long holds. The cache catches up as with short ones.
    expectations.expectCreations("ns/a", 2);
    expectations.created("ns/a", "u1", "99999999999999999999");
    expectations.created("ns/a", "u2", "100000000000000000000");

    assertThat(expectations.satisfied("ns/a", "99999999999999999999")).isFalse();
    assertThat(expectations.satisfied("ns/a", "100000000000000000000")).isTrue();
  }

  @Test
  void resourceVersions_atLeast_comparesNumericallyAndRefusesOpaqueValues() {
    assertThat(ResourceVersions.atLeast("100", "99")).isTrue();
    assertThat(ResourceVersions.atLeast("99", "100")).isFalse();
    assertThat(ResourceVersions.atLeast("100000000000000000000", "99999999999999999999")).isTrue();
    assertThat(ResourceVersions.atLeast("abc", "1")).isFalse();
    assertThat(ResourceVersions.atLeast(null, "1")).isFalse();
  }

  @Test
  void opaqueResourceVersion_neverCountsAsCaughtUp() {
    expectations.expectCreations("ns/a", 1);
    expectations.created("ns/a", "u1", "abc");

    assertThat(expectations.satisfied("ns/a", "99")).isFalse();
  }

  @Test
  void concurrentObservers_neverLoseACount() throws Exception {
    int keys = 50;
    int perKey = 200;
    for (int k = 0; k < keys; k++) {
      expectations.expectCreations("k" + k, perKey);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < 4; t++) {
      int shard = t;
      pool.submit(
          () -> {
            start.await();
            for (int k = 0; k < keys; k++) {
              for (int i = shard; i < perKey; i += 4) {
                expectations.created("k" + k, "u" + i, Integer.toString(i));
                expectations.creationObserved("k" + k, "u" + i);
              }
            }
            return null;
          });
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    for (int k = 0; k < keys; k++) {
      assertThat(expectations.pendingCreations("k" + k)).isZero();
      assertThat(expectations.satisfied("k" + k)).isTrue();
    }
  }
}
