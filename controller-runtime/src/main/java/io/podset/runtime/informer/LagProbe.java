package io.podset.runtime.informer;

import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the server's newest resourceVersion for a {@link CacheLag} every period, on a thread of
 * its own (the read blocks; the clock's scheduler must not). A failed read is skipped: the samples
 * already taken keep the lag growing while the cache does not catch up.
 *
 * <p>Cost: one list of one object per period and informer ({@link
 * ListerWatcher#latestResourceVersion()}).
 */
final class LagProbe implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LagProbe.class);

  private final String name;
  private final ListerWatcher<?> listerWatcher;
  private final CacheLag lag;
  private final Clock clock;
  private final Duration period;
  private final BackoffSleep sleep;

  private final Object lock = new Object();
  // Guarded by lock.
  private @Nullable Thread thread;
  private boolean closed;

  LagProbe(
      String name, ListerWatcher<?> listerWatcher, CacheLag lag, Clock clock, Duration period) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.lag = Objects.requireNonNull(lag, "lag");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.period = Objects.requireNonNull(period, "period");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("lag sample period must be positive: " + period);
    }
    this.sleep = new BackoffSleep(clock);
  }

  /** Starts sampling; a no-op if started or closed. */
  void start() {
    synchronized (lock) {
      if (thread != null || closed) {
        return;
      }
      thread = new Thread(this::run, "lag-probe-" + name);
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** The first sample is one period after the start: while the first list runs it says nothing. */
  private void run() {
    while (sleep.sleep(period)) {
      try {
        String version = listerWatcher.latestResourceVersion();
        lag.sampled(version, clock.nanoTime());
      } catch (RuntimeException e) {
        log.debug(
            "Lag probe {}: reading the server's resourceVersion failed: {}", name, e.toString());
      }
    }
  }

  @Override
  public void close() {
    Thread t;
    synchronized (lock) {
      closed = true;
      t = thread;
    }
    sleep.close();
    if (t != null) {
      t.interrupt();
    }
  }
}
