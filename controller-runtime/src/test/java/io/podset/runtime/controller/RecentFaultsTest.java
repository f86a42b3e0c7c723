package io.podset.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecentFaultsTest {

  private static final Duration WINDOW = Duration.ofSeconds(10);

  private final ManualClock clock = new ManualClock();
  private final FakeInformer<ReplicaSet> primaries = new FakeInformer<>(ReplicaSet.class);
  private final FakeInformer<ConfigMap> owned = new FakeInformer<>(ConfigMap.class);
  private final RecentFaults faults =
      RecentFaults.create(
          clock,
          WINDOW,
          RecentFaults.DEFAULT_TOLERANCE,
          RecentFaults.DEFAULT_SILENCE,
          primaries,
          List.of(primaries, owned));
  private final Request web = new Request("ns", "web");
  private final Request other = new Request("ns", "other");

  @Test
  void cachesFollowingWithoutFaults_vouch() {
    assertThat(faults.confirmCreates(web)).isFalse();
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void primaryCacheNotFollowingNow_doesNotVouch_andIsNotRemembered() {
    primaries.following(false);
    assertThat(faults.cachesVouchFor(web)).isFalse();

    // Load on a healthy server (our writes echoed late, a watch re-opened), not a fault.
    primaries.following(true);
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void anOwnedCacheShowingOurWritesLate_stillVouches() {
    owned.following(false);
    assertThat(faults.confirmCreates(web)).isFalse();
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void anOwnedCacheFaulted_noCacheVouches() {
    owned.faulted(true);
    assertThat(faults.cachesVouchFor(web)).isFalse();
    owned.faulted(false);
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void transientFailureOfAnyRequest_confirmsEveryRequestForTheWindow() {
    faults.failed(other, new KubernetesClientException("slow down", 429, null));
    faults.passed(other);

    assertThat(faults.cachesVouchFor(web)).isFalse();
    clock.advance(WINDOW);
    assertThat(faults.cachesVouchFor(web)).isFalse();
    clock.advance(Duration.ofNanos(1));
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void failedPass_confirmsItsRetryAfterAnyBackoff_untilAPassSucceeds() {
    faults.failed(web, new IllegalStateException("a bug, no fault of the server's"));
    clock.advance(Duration.ofHours(1));

    assertThat(faults.cachesVouchFor(web)).isFalse();
    assertThat(faults.cachesVouchFor(other)).isTrue();
    faults.passed(web);
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }

  @Test
  void forgottenRequest_isNoRetry() {
    faults.failed(web, new IllegalStateException("boom"));
    faults.forget(web);
    assertThat(faults.cachesVouchFor(web)).isTrue();
  }
}
