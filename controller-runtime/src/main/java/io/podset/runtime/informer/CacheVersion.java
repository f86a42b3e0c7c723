package io.podset.runtime.informer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * How far a cache has read one resource's changes from the server, by resourceVersion: what the
 * read-your-writes barrier ({@link io.podset.runtime.controller.ReadYourWrites}) waits on. Every
 * {@link SharedInformer} is one; so can be a cache a test fills by hand.
 */
public interface CacheVersion {

  /**
   * The newest resourceVersion r such that every change up to r is in the cache (null before the
   * first list). Changes of one resource arrive in resourceVersion order, so once this is at least
   * the version returned by a write, the cache reflects that write, or something newer.
   */
  @Nullable String lastObservedResourceVersion();

  /**
   * A future completed once {@link #lastObservedResourceVersion()} reaches {@code resourceVersion}
   * (compared as numbers, see {@link ResourceVersions}); cancel it to stop waiting.
   *
   * @throws IllegalArgumentException if {@code resourceVersion} is not numeric
   */
  CompletableFuture<Void> awaitObserved(String resourceVersion);

  /**
   * Whether the cache shows, right now, that it follows the server closely: a watch is open; the
   * cache applied a change or a bookmark at most {@code maxSilence} ago; none of the versions
   * waited for with {@link #awaitObserved} (its owner's own writes, through the read-your-writes
   * barrier) has waited longer than {@code tolerance}, nor did the last ones shown in the past few
   * seconds. A watch whose events the server holds back shows within {@code maxSilence}, or within
   * {@code tolerance} of the owner's next write; one whose events arrive late shows at the owner's
   * next write.
   *
   * <p>Evidence, not proof: a change the server made less than {@code tolerance} ago, or one held
   * back while the owner wrote nothing, can be missing while this says true. A caller that must not
   * act for an object the server deleted reads it from the server when this says false. By default
   * false (a cache that cannot tell).
   *
   * @throws NullPointerException if an argument is null
   */
  default boolean following(Duration tolerance, Duration maxSilence) {
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(maxSilence, "maxSilence");
    return false;
  }

  /**
   * Whether the cache met a fault within the past {@code window}, or is still in one: a list or
   * watch request failed (a refusal such as 429 or 5xx, a broken connection), a watch ended with an
   * error or at once without events, or the cache was listed again (a relist after an expired
   * version: what changed meanwhile arrives as one, a deletion late). A watch that ends at its
   * timeout and is opened again is no fault.
   *
   * <p>Complements {@link #following}, which tells what the cache shows right now: a cache that
   * just recovered from a fault follows again, while the server that refused it may still be
   * refusing others and holding events back. A caller that must not act for an object the server
   * deleted (creating children for it, say) reads it from the server while this says true. By
   * default true (a cache that cannot tell).
   *
   * @throws NullPointerException if {@code window} is null
   */
  default boolean faultedWithin(Duration window) {
    Objects.requireNonNull(window, "window");
    return true;
  }
}
