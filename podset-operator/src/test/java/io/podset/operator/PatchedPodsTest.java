package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PatchedPodsTest {

  private final ManualClock clock = new ManualClock();
  private final PatchedPods<String> patched = new PatchedPods<>(clock, Duration.ofMinutes(1));

  @Test
  void seen_nothingPatched_true() {
    assertThat(patched.seen("k", Map.of())).isTrue();
  }

  @Test
  void seen_cachedPodOlderThanThePatch_falseUntilCaughtUp() {
    patched.patched("k", "web-a", "100");

    assertThat(patched.seen("k", Map.of("web-a", "99"))).isFalse();
    assertThat(patched.seen("k", Map.of("web-a", "100"))).isTrue();
    assertThat(patched.seen("k", Map.of("web-a", "1"))).isTrue();
  }

  @Test
  void seen_everyPatchedPodMustBeCaughtUp() {
    patched.patched("k", "web-a", "100");
    patched.patched("k", "web-b", "101");

    assertThat(patched.seen("k", Map.of("web-a", "100", "web-b", "50"))).isFalse();
    assertThat(patched.seen("k", Map.of("web-a", "1", "web-b", "101"))).isTrue();
  }

  @Test
  void seen_podGoneFromTheCache_counts() {
    patched.patched("k", "web-a", "100");

    assertThat(patched.seen("k", Map.of("web-b", "5"))).isTrue();
  }

  @Test
  void seen_otherKeys_unaffected() {
    patched.patched("k", "web-a", "100");

    assertThat(patched.seen("other", Map.of())).isTrue();
  }

  @Test
  void seen_afterTheTimeout_trueAndCounted() {
    patched.patched("k", "web-a", "100");
    clock.advance(Duration.ofMinutes(1));

    assertThat(patched.seen("k", Map.of("web-a", "5"))).isTrue();
    assertThat(patched.timeouts()).isEqualTo(1);
  }

  @Test
  void forget_dropsThePatches() {
    patched.patched("k", "web-a", "100");
    patched.forget("k");

    assertThat(patched.seen("k", Map.of("web-a", "5"))).isTrue();
  }

  @Test
  void create_nonPositiveTimeout_rejected() {
    assertThatThrownBy(() -> new PatchedPods<String>(clock, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout must be positive, got PT0S");
  }
}
