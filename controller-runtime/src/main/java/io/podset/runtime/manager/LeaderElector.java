package io.podset.runtime.manager;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Campaigns for a Lease and keeps it, with client-go's algorithm: a follower takes over only after
 * the Lease went unrenewed for a whole lease duration measured on its own clock (so clock skew
 * between candidates does not matter); the leader renews every retry period and steps down when it
 * could not renew for the renew deadline.
 *
 * <p>Fencing: {@link #mayWrite()} is true only while this candidate leads and its last successful
 * renewal was sent less than the renew deadline ago. Since followers wait a full lease duration
 * (longer than the renew deadline), a write admitted by the fence cannot overlap the next leader's.
 *
 * <p>A hung request cannot hold the leader past its renew deadline: each attempt of the leader is
 * abandoned after {@link LeaderElectionConfig#attemptTimeout()} or when the renew deadline passes,
 * whichever comes first; its late answer is ignored. While leading, the next attempt comes after
 * the retry period or at the renew deadline, whichever comes first, and an attempt at or past the
 * deadline steps down without a request. A follower's attempts are not bounded: a hung one only
 * delays its own takeover.
 *
 * <p>Attempts are scheduled with the {@link Clock} and run on {@code executor}; their Lease
 * requests run on {@code requests} (they block on the API server). Callbacks run on the executor
 * thread.
 */
final class LeaderElector implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);
  // client-go adds up to 20% jitter to the retry period while not leading.
  private static final double JITTER = 0.2;

  /** Leadership changes, in order. */
  interface Callbacks {
    void startedLeading();

    void stoppedLeading();

    default void newLeader(String identity) {}
  }

  private final LeaderElectionConfig config;
  private final LeaseStore store;
  private final Clock clock;
  private final Executor executor;
  private final Executor requests;
  private final Callbacks callbacks;

  private final Object lock = new Object();
  // Guarded by lock. The last record read or written, and when (our clock) its content changed.
  private @Nullable LeaseRecord observed;
  private long observedAtNanos;
  // Guarded by lock. True while leading; lastRenewSentNanos is when the last successful renewal
  // (or acquisition) was sent.
  private boolean leading;
  private long lastRenewSentNanos;
  private boolean closed;
  private Clock.@Nullable Cancellable next;
  private @Nullable String lastReportedLeader;

  /** An elector whose Lease requests run on the executor's thread (nothing can cut them short). */
  LeaderElector(
      LeaderElectionConfig config,
      LeaseStore store,
      Clock clock,
      Executor executor,
      Callbacks callbacks) {
    this(config, store, clock, executor, Runnable::run, callbacks);
  }

  LeaderElector(
      LeaderElectionConfig config,
      LeaseStore store,
      Clock clock,
      Executor executor,
      Executor requests,
      Callbacks callbacks) {
    this.config = Objects.requireNonNull(config, "config");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.requests = Objects.requireNonNull(requests, "requests");
    this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
  }

  /** Starts campaigning; returns at once. */
  void start() {
    scheduleAttempt(Duration.ZERO);
  }

  /** True while leading and within the renew deadline of the last successful renewal. */
  boolean mayWrite() {
    synchronized (lock) {
      return leading && clock.nanoTime() - lastRenewSentNanos < config.renewDeadline().toNanos();
    }
  }

  /** True while this candidate believes it leads (it may already be past its renew deadline). */
  boolean isLeader() {
    synchronized (lock) {
      return leading;
    }
  }

  /** The holder named in the last record observed, if any. */
  Optional<String> observedLeader() {
    synchronized (lock) {
      return observed == null || observed.released()
          ? Optional.empty()
          : Optional.ofNullable(observed.holderIdentity());
    }
  }

  private void scheduleAttempt(Duration delay) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      next = clock.schedule(delay, () -> executor.execute(this::attempt));
    }
  }

  private void attempt() {
    long sentNanos;
    Duration timeout;
    synchronized (lock) {
      if (closed) {
        return;
      }
      sentNanos = clock.nanoTime();
      timeout = leading ? leaderAttemptTimeoutLocked(sentNanos) : null;
    }
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      finish(sentNanos, false); // at or past the renew deadline: step down, no request
      return;
    }
    // A refused call (shutting down) finishes as failed: finish() then sees the elector closed.
    TimedCall.run(
        clock,
        requests,
        timeout,
        this::tryOnce,
        () ->
            log.warn(
                "Lease {}/{}: attempt abandoned after {} without an answer",
                config.leaseNamespace(),
                config.leaseName(),
                timeout),
        acquired -> executor.execute(() -> finish(sentNanos, acquired)));
  }

  /**
   * How long the leader's attempt may take: the attempt timeout, or what is left to the deadline.
   */
  private Duration leaderAttemptTimeoutLocked(long nowNanos) {
    Duration left =
        Duration.ofNanos(lastRenewSentNanos + config.renewDeadline().toNanos() - nowNanos);
    return left.compareTo(config.attemptTimeout()) < 0 ? left : config.attemptTimeout();
  }

  private boolean tryOnce() {
    try {
      return tryAcquireOrRenew();
    } catch (RuntimeException e) {
      log.warn(
          "Lease {}/{}: attempt failed: {}",
          config.leaseNamespace(),
          config.leaseName(),
          e.toString());
      return false;
    }
  }

  /** Applies an attempt's outcome (on the executor) and schedules the next attempt. */
  private void finish(long sentNanos, boolean acquired) {
    boolean started = false;
    boolean stopped = false;
    Duration delay;
    synchronized (lock) {
      if (closed) {
        return;
      }
      if (acquired) {
        lastRenewSentNanos = sentNanos;
        started = !leading;
        leading = true;
      } else if (leading
          && clock.nanoTime() - lastRenewSentNanos >= config.renewDeadline().toNanos()) {
        leading = false;
        stopped = true;
      }
      delay = leading ? untilNextRenewalLocked() : jittered(config.retryPeriod());
    }
    reportLeader();
    if (started) {
      log.info(
          "Lease {}/{}: {} became leader",
          config.leaseNamespace(),
          config.leaseName(),
          config.identity());
      callbacks.startedLeading();
    }
    if (stopped) {
      log.warn(
          "Lease {}/{}: {} lost leadership (no renewal within {})",
          config.leaseNamespace(),
          config.leaseName(),
          config.identity(),
          config.renewDeadline());
      callbacks.stoppedLeading();
    }
    scheduleAttempt(delay);
  }

  /** The retry period, or less when the renew deadline comes first. */
  private Duration untilNextRenewalLocked() {
    Duration left =
        Duration.ofNanos(lastRenewSentNanos + config.renewDeadline().toNanos() - clock.nanoTime());
    if (left.isNegative()) {
      return Duration.ZERO;
    }
    return left.compareTo(config.retryPeriod()) < 0 ? left : config.retryPeriod();
  }

  /**
   * One round of client-go's tryAcquireOrRenew. A record is observed when the read returns, not
   * when the attempt began: a read slowed by retries may carry a renewal made long after the
   * attempt began, and the lease duration must run from then (else a follower takes over while the
   * leader is still within its renew deadline).
   */
  private boolean tryAcquireOrRenew() {
    Instant now = clock.instant();
    int durationSeconds = (int) Math.max(1, config.leaseDuration().toSeconds());
    Optional<LeaseRecord> current = store.get();
    long readNanos = clock.nanoTime();
    if (current.isEmpty()) {
      LeaseRecord created =
          store.create(new LeaseRecord(config.identity(), durationSeconds, now, now, 0, null));
      observe(created, clock.nanoTime());
      return true;
    }
    LeaseRecord existing = current.get();
    observe(existing, readNanos);
    boolean mine = existing.heldBy(config.identity());
    if (!mine && !existing.released() && !expired(readNanos)) {
      return false;
    }
    LeaseRecord desired =
        mine
            ? new LeaseRecord(
                config.identity(),
                durationSeconds,
                existing.acquireTime(),
                now,
                existing.leaseTransitions(),
                existing.resourceVersion())
            : new LeaseRecord(
                config.identity(),
                durationSeconds,
                now,
                now,
                existing.leaseTransitions() + 1,
                existing.resourceVersion());
    LeaseRecord written = store.update(desired);
    observe(written, clock.nanoTime());
    return true;
  }

  private boolean expired(long nowNanos) {
    synchronized (lock) {
      return nowNanos - observedAtNanos >= config.leaseDuration().toNanos();
    }
  }

  private void observe(LeaseRecord record, long nowNanos) {
    synchronized (lock) {
      if (observed == null || !observed.sameContent(record)) {
        observedAtNanos = nowNanos;
      }
      observed = record;
    }
  }

  private void reportLeader() {
    String leader = observedLeader().orElse(null);
    if (leader == null) {
      return;
    }
    boolean changed;
    synchronized (lock) {
      changed = !leader.equals(lastReportedLeader);
      if (changed) {
        lastReportedLeader = leader;
      }
    }
    if (changed) {
      callbacks.newLeader(leader);
    }
  }

  private static Duration jittered(Duration period) {
    double factor = 1 + ThreadLocalRandom.current().nextDouble() * JITTER;
    return Duration.ofNanos((long) (period.toNanos() * factor));
  }

  /**
   * Stops campaigning. When leading and {@code release} is set, gives the Lease up so a standby
   * takes over at once instead of after a lease duration.
   */
  void stop(boolean release) {
    boolean wasLeading;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      if (next != null) {
        next.cancel();
      }
      wasLeading = leading;
      leading = false;
    }
    if (wasLeading && release) {
      LeaseRelease.release(store, clock, config);
    }
    if (wasLeading) {
      callbacks.stoppedLeading();
    }
  }

  @Override
  public void close() {
    stop(config.releaseOnCancel());
  }
}
