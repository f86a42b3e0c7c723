package io.podset.runtime.informer;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Bounds how often one {@link Reflector} relists: a token bucket of {@code burst} relists, one
 * token back every interval. The first list of an informer takes no token.
 *
 * <p>The interval follows what lists cost: {@value #COST_FACTOR} times the duration of the last
 * list that completed (so relisting takes at most about a tenth of the time), between a fifth of
 * {@code maxInterval} and {@code maxInterval}. A small collection that keeps expiring its watch (a
 * compaction storm, a server that 410s every resume) is relisted about once a second and its cache
 * keeps up; a large one, whose list takes half a second or more, at most once per {@code
 * maxInterval}, as with a fixed bound.
 *
 * <p>Why a bound at all: the reflector resets its backoff as soon as a list or a watch succeeds
 * ({@link Backoff#reset()}), so a server that keeps expiring the watch's version would otherwise be
 * listed again right away each time. client-go has no such bound; its backoff, reset only after two
 * healthy minutes, slows every recovery to keep lists rare. Relists are the expensive call (every
 * object, every page); re-watches are cheap and not limited here.
 *
 * <p>Thread-safe: the reflector's thread reserves, a streaming list reports its duration from the
 * thread that delivered its last initial event.
 */
final class RelistLimiter {

  /** The interval is this many times the last list's duration (within its bounds). */
  static final int COST_FACTOR = 10;

  private final Clock clock;
  private final long maxIntervalNanos;
  private final long minIntervalNanos;
  private final int burst;
  // All guarded by this. intervalNanos: the current interval, maxIntervalNanos until a list was
  // timed. Tokens as of lastRefill; the whole-interval remainder is carried by lastRefill.
  private long intervalNanos;
  private int tokens;
  private long lastRefill;
  private boolean firstListDone;

  /**
   * @param maxInterval the longest interval (also the one before any list was timed); zero for no
   *     bound
   * @throws IllegalArgumentException if {@code burst} is not positive or {@code maxInterval} is
   *     negative
   */
  RelistLimiter(Clock clock, int burst, Duration maxInterval) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(maxInterval, "maxInterval");
    if (burst <= 0) {
      throw new IllegalArgumentException("relist burst must be positive: " + burst);
    }
    if (maxInterval.isNegative()) {
      throw new IllegalArgumentException("relist interval must not be negative: " + maxInterval);
    }
    this.burst = burst;
    this.maxIntervalNanos = maxInterval.toNanos();
    this.minIntervalNanos = maxIntervalNanos / 5;
    this.intervalNanos = maxIntervalNanos;
    this.tokens = burst;
    this.lastRefill = clock.nanoTime();
  }

  /**
   * How long to wait before the list about to start; takes its token (the caller waits, then
   * lists). Zero for the first list and whenever a token is left.
   */
  synchronized Duration reserve() {
    if (!firstListDone) {
      firstListDone = true;
      return Duration.ZERO;
    }
    if (intervalNanos == 0) {
      return Duration.ZERO;
    }
    long now = clock.nanoTime();
    long elapsed = now - lastRefill;
    long refills = elapsed / intervalNanos;
    if (refills > 0) {
      tokens = (int) Math.min(burst, tokens + refills);
      lastRefill = tokens == burst ? now : lastRefill + refills * intervalNanos;
    }
    if (tokens > 0) {
      tokens--;
      if (tokens == burst - 1) {
        lastRefill = now; // the bucket was full: the refill period starts with this token
      }
      return Duration.ZERO;
    }
    // Wait for the next token and spend it at once.
    long wait = lastRefill + intervalNanos - now;
    lastRefill += intervalNanos;
    return Duration.ofNanos(Math.max(0, wait));
  }

  /** A list completed after {@code took}: the interval becomes {@value #COST_FACTOR} times that. */
  synchronized void listTook(Duration took) {
    if (maxIntervalNanos == 0) {
      return;
    }
    long cost = Math.max(0, took.toNanos());
    long scaled = cost > maxIntervalNanos / COST_FACTOR ? maxIntervalNanos : cost * COST_FACTOR;
    intervalNanos = Math.max(minIntervalNanos, scaled);
  }

  /** The current interval (for tests). */
  synchronized Duration interval() {
    return Duration.ofNanos(intervalNanos);
  }
}
