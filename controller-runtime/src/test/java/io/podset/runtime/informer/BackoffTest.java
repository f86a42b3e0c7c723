package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final ManualClock clock = new ManualClock();

  private Backoff backoff(double random) {
    return new Backoff(
        clock,
        Duration.ofMillis(800),
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        0.5,
        () -> random);
  }

  @Test
  void next_doublesFrom800msAndCapsAt30s() {
    Backoff backoff = backoff(0.0);
    List<Long> delays = new ArrayList<>();

    for (int i = 0; i < 8; i++) {
      Duration delay = backoff.next();
      delays.add(delay.toMillis());
      clock.advance(delay);
    }

    assertThat(delays).containsExactly(800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L);
  }

  @Test
  void next_addsJitterOfUpToHalfTheDelay() {
    Backoff backoff = backoff(0.999);

    assertThat(backoff.next().toMillis()).isBetween(800L, 1200L).isGreaterThan(1190L);
  }

  @Test
  void next_startsOverAfterTwoMinutesWithoutBackingOff() {
    Backoff backoff = backoff(0.0);
    backoff.next();
    backoff.next();
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(3200));

    clock.advance(Duration.ofMinutes(2));

    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(800));
    clock.advance(Duration.ofSeconds(119));
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(1600));
  }
}
