package io.podset.runtime.informer;

import java.time.Duration;

/**
 * What a {@link Reflector} does after a list or a watch ended, and the rules that choose it: 410
 * Gone relists at once (the relist limiter bounds how often; client-go waits its backoff first);
 * other refusals relist after a backoff; broken connections, 429 and 5xx re-watch from the last
 * version after a backoff (the cache stays valid), and a list they failed is started over after a
 * short one; a watch that ended cleanly is re-opened at once, unless it ended suspiciously fast
 * without events.
 */
enum ReflectorStep {
  WATCH_NOW,
  WATCH_AFTER_BACKOFF,
  LIST_NOW,
  /** After a failure that may pass at once (broken connection, 429, 5xx): the resume cap. */
  LIST_AFTER_SHORT_BACKOFF,
  /** After a refusal (403, 404, a bug of ours): the full backoff. */
  LIST_AFTER_BACKOFF,
  STOP;

  /** A clean watch end quicker than this, without events, counts as a failure (backoff). */
  static final Duration SHORT_WATCH = Duration.ofSeconds(1);

  /**
   * Whether a failed list should be retried at once as a quorum read: the server no longer has (or
   * does not yet have) the version asked for, and that version was not already "".
   */
  static boolean needsQuorumRelist(RuntimeException e, String resourceVersion) {
    return (ApiErrors.isGone(e) || ApiErrors.isTooLargeResourceVersion(e))
        && !resourceVersion.isEmpty();
  }

  /** After a list that failed with {@code e} (other than 410 Gone, which relists at once). */
  static ReflectorStep afterListFailure(RuntimeException e) {
    return ApiErrors.isRetriableWatchError(e) ? LIST_AFTER_SHORT_BACKOFF : LIST_AFTER_BACKOFF;
  }

  /** After a watch that failed to open or ended with {@code e}. */
  static ReflectorStep afterWatchFailure(RuntimeException e) {
    if (ApiErrors.isGone(e)) {
      return LIST_NOW;
    }
    return ApiErrors.isRetriableWatchError(e) ? WATCH_AFTER_BACKOFF : LIST_AFTER_BACKOFF;
  }

  /**
   * Whether a watch that ended without error after {@code lasted} and {@code events} events was
   * suspiciously short (the client-side guard ending it does not count).
   */
  static boolean endedTooSoon(long events, Duration lasted, boolean expired) {
    return events == 0 && lasted.compareTo(SHORT_WATCH) < 0 && !expired;
  }
}
