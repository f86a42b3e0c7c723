package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class LeaderElectorTest {

  private final ManualClock clock = new ManualClock();
  private final InMemoryLeaseStore store = new InMemoryLeaseStore();

  private final class Candidate {
    final List<String> events = new ArrayList<>();
    final LeaderElector elector;

    Candidate(String identity) {
      this(identity, store);
    }

    Candidate(String identity, LeaseStore leases) {
      this(identity, leases, Runnable::run);
    }

    Candidate(String identity, LeaseStore leases, Executor requests) {
      LeaderElectionConfig config = LeaderElectionConfig.of("ns", "lease", identity);
      elector =
          new LeaderElector(
              config,
              leases,
              clock,
              Runnable::run,
              requests,
              new LeaderElector.Callbacks() {
                @Override
                public void startedLeading() {
                  events.add("started");
                }

                @Override
                public void stoppedLeading() {
                  events.add("stopped");
                }

                @Override
                public void newLeader(String id) {
                  events.add("leader=" + id);
                }
              });
    }
  }

  @Test
  void firstCandidate_acquiresAndOthersFollow() {
    Candidate a = new Candidate("a");
    Candidate b = new Candidate("b");
    a.elector.start();
    clock.runDueTasks();
    b.elector.start();
    clock.advance(Duration.ofSeconds(10));

    assertThat(a.elector.isLeader()).isTrue();
    assertThat(a.elector.mayWrite()).isTrue();
    assertThat(b.elector.isLeader()).isFalse();
    assertThat(b.events).containsExactly("leader=a");
    assertThat(store.stored().holderIdentity()).isEqualTo("a");
  }

  @Test
  void partitionedLeader_stopsWritingBeforeTheFollowerTakesOver() {
    PartitionableStore aView = new PartitionableStore(store);
    Candidate a = new Candidate("a", aView);
    Candidate b = new Candidate("b", store);
    a.elector.start();
    clock.runDueTasks();
    b.elector.start();
    clock.advance(Duration.ofSeconds(3));

    aView.partitioned = true;
    long aFencedAt = -1;
    long bWritesAt = -1;
    for (int tenth = 1; tenth <= 300; tenth++) {
      clock.advance(Duration.ofMillis(100));
      assertThat(a.elector.mayWrite() && b.elector.mayWrite()).as("two writers").isFalse();
      if (aFencedAt < 0 && !a.elector.mayWrite()) {
        aFencedAt = tenth;
      }
      if (bWritesAt < 0 && b.elector.mayWrite()) {
        bWritesAt = tenth;
      }
    }
    assertThat(aFencedAt).isBetween(80L, 100L); // renew deadline after the last renewal
    assertThat(bWritesAt).isGreaterThan(aFencedAt + 40); // a full lease duration, plus jitter
    assertThat(store.stored().holderIdentity()).isEqualTo("b");
  }

  @Test
  void follower_slowRead_countsTheLeaseFromWhenTheRecordArrived_neverTwoWriters() {
    // Found by the failover test: a follower's read of the Lease slowed by 503 retries returned a
    // renewal made long after the read began; the lease duration counted from the beginning, so
    // the follower took over while the leader was still within its renew deadline.
    PartitionableStore aView = new PartitionableStore(store);
    SlowStore bView = new SlowStore(store);
    Candidate a = new Candidate("a", aView);
    Candidate b = new Candidate("b", bView);
    a.elector.start();
    clock.runDueTasks();
    b.elector.start();
    clock.advance(Duration.ofSeconds(3));

    bView.nextGetTakes = Duration.ofSeconds(9); // a keeps renewing meanwhile
    bView.afterSlowGet = () -> aView.partitioned = true; // then a is cut off
    for (int tenth = 1; tenth <= 400; tenth++) {
      clock.advance(Duration.ofMillis(100));
      assertThat(a.elector.mayWrite() && b.elector.mayWrite()).as("two writers").isFalse();
    }
    assertThat(b.elector.isLeader()).as("b took over in the end").isTrue();
  }

  @Test
  void hungRenewals_areAbandoned_soTheLeaderStepsDownAtItsRenewDeadline_ignoringLateAnswers() {
    // Lease requests wait here until the test answers them: one never run is a hung request.
    Deque<Runnable> requests = new ArrayDeque<>();
    Candidate a = new Candidate("a", store, requests::add);
    a.elector.start();
    clock.runDueTasks();
    requests.remove().run();
    assertThat(a.elector.isLeader()).isTrue();

    // No request is answered from now on: the renewal at 2 s is abandoned at 7 s (half the renew
    // deadline), the one at 9 s at the deadline, 10 s after the acquisition was sent.
    clock.advance(Duration.ofMillis(9900));
    assertThat(a.elector.isLeader()).isTrue();
    assertThat(a.elector.mayWrite()).isTrue();
    clock.advance(Duration.ofMillis(100));
    assertThat(a.elector.isLeader()).as("stepped down at the renew deadline").isFalse();
    assertThat(a.elector.mayWrite()).isFalse();
    assertThat(a.events).containsExactly("leader=a", "started", "stopped");
    assertThat(requests).hasSize(2);

    requests.forEach(Runnable::run); // late answers: both renewals succeed on the server
    assertThat(a.elector.isLeader()).as("late answers ignored").isFalse();
    assertThat(a.events).containsExactly("leader=a", "started", "stopped");
  }

  @Test
  void renewFailures_revokeTheFenceAfterTheRenewDeadline() {
    Candidate a = new Candidate("a");
    a.elector.start();
    clock.runDueTasks();
    assertThat(a.elector.mayWrite()).isTrue();

    store.failing(true);
    clock.advance(Duration.ofSeconds(9));
    assertThat(a.elector.mayWrite()).isTrue();
    clock.advance(Duration.ofMillis(1100));
    assertThat(a.elector.mayWrite()).isFalse();
    clock.advance(Duration.ofSeconds(2));
    assertThat(a.elector.isLeader()).isFalse();
    assertThat(a.events).containsExactly("leader=a", "started", "stopped");
  }

  @Test
  void follower_takesOverOnlyAfterAFullLeaseDurationWithoutRenewal() {
    Candidate a = new Candidate("a");
    Candidate b = new Candidate("b");
    a.elector.start();
    clock.runDueTasks();
    b.elector.start();
    clock.advance(Duration.ofSeconds(3));
    a.elector.stop(false); // crash: no release

    clock.advance(Duration.ofSeconds(12));
    assertThat(b.elector.isLeader()).isFalse();
    clock.advance(Duration.ofSeconds(6));
    assertThat(b.elector.isLeader()).isTrue();
    assertThat(store.stored().leaseTransitions()).isEqualTo(1);
  }

  @Test
  void release_handsOverAtTheFollowersNextAttempt() {
    Candidate a = new Candidate("a");
    Candidate b = new Candidate("b");
    a.elector.start();
    clock.runDueTasks();
    b.elector.start();
    clock.advance(Duration.ofSeconds(3));

    a.elector.stop(true);
    clock.advance(Duration.ofMillis(2500));

    assertThat(b.elector.isLeader()).isTrue();
    assertThat(a.events).containsExactly("leader=a", "started", "stopped");
  }

  @Test
  void config_rejectsInconsistentTimingsNamingTheOption() {
    LeaderElectionConfig base = LeaderElectionConfig.of("ns", "lease", "me");
    assertThatThrownBy(
            () ->
                base.withTimings(
                    Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(2)))
        .hasMessageContaining("renewDeadline");
    assertThatThrownBy(
            () ->
                base.withTimings(
                    Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(-2)))
        .hasMessageContaining("retryPeriod");
    assertThatThrownBy(() -> LeaderElectionConfig.of("ns", " ", "me"))
        .hasMessageContaining("leaseName");
  }

  /** One candidate's view of the shared store whose next read takes a while (on the clock). */
  private final class SlowStore implements LeaseStore {
    private final LeaseStore delegate;
    Duration nextGetTakes;
    Runnable afterSlowGet = () -> {};

    SlowStore(LeaseStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public java.util.Optional<LeaseRecord> get() {
      Duration takes = nextGetTakes;
      if (takes == null) {
        return delegate.get();
      }
      nextGetTakes = null;
      clock.advance(takes); // the other candidates' attempts run meanwhile
      java.util.Optional<LeaseRecord> record = delegate.get();
      afterSlowGet.run();
      return record;
    }

    @Override
    public LeaseRecord create(LeaseRecord record) {
      return delegate.create(record);
    }

    @Override
    public LeaseRecord update(LeaseRecord record) {
      return delegate.update(record);
    }
  }

  /** One candidate's view of the shared store, which a partition can cut off. */
  private static final class PartitionableStore implements LeaseStore {
    private final LeaseStore delegate;
    volatile boolean partitioned;

    PartitionableStore(LeaseStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public java.util.Optional<LeaseRecord> get() {
      check();
      return delegate.get();
    }

    @Override
    public LeaseRecord create(LeaseRecord record) {
      check();
      return delegate.create(record);
    }

    @Override
    public LeaseRecord update(LeaseRecord record) {
      check();
      return delegate.update(record);
    }

    private void check() {
      if (partitioned) {
        throw new IllegalStateException("partitioned");
      }
    }
  }
}
