package io.podset.runtime.informer;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Bounds how often one {@link Reflector} relists: a token bucket of {@code burst} relists, one
 * token back every {@code interval}. The first list of an informer takes no token.
 *
 * <p>Why: the reflector resets its backoff as soon as a list or a watch succeeds ({@link
 * Backoff#reset()}), so a server that keeps expiring the watch's version (410 Gone right after each
 * relist, a compaction storm) would otherwise be listed again about once a second. client-go has no
 * such bound; its backoff, reset only after two healthy minutes, slows every recovery to keep lists
 * rare. Relists are the expensive call (every object, every page); re-watches are cheap and not
 * limited here.
 *
 * <p>Used by the reflector's thread only; not thread-safe.
 */
final class RelistLimiter {

  private final Clock clock;
  private final long intervalNanos;
  private final int burst;
  // Tokens as of lastRefill; the whole-interval remainder is carried by lastRefill.
  private int tokens;
  private long lastRefill;
  private boolean firstListDone;

  /**
   * @throws IllegalArgumentException if {@code burst} is not positive or {@code interval} is
   *     negative
   */
  RelistLimiter(Clock clock, int burst, Duration interval) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(interval, "interval");
    if (burst <= 0) {
      throw new IllegalArgumentException("relist burst must be positive: " + burst);
    }
    if (interval.isNegative()) {
      throw new IllegalArgumentException("relist interval must not be negative: " + interval);
    }
    this.burst = burst;
    this.intervalNanos = interval.toNanos();
    this.tokens = burst;
    this.lastRefill = clock.nanoTime();
  }

  /**
   * How long to wait before the list about to start; takes its token (the caller waits, then
   * lists). Zero for the first list and whenever a token is left.
   */
  Duration reserve() {
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
}
