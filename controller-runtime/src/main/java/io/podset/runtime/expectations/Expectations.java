package io.podset.runtime.expectations;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.informer.ResourceVersions;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a controller has asked the API server to create and delete, per key, until the cache shows
 * it.
 *
 * <p>Protocol for a reconcile of {@code key}:
 *
 * <ol>
 *   <li>Act on the cache only if {@link #satisfied(Object, String)} is true.
 *   <li>Before writing, call {@link #expectCreations} with the number of creates about to be sent
 *       and {@link #expectDeletions} with the uids about to be deleted.
 *   <li>Report each write's outcome: {@link #created} (with the new object's uid) or {@link
 *       #creationFailed}, {@link #deleted} or {@link #deletionFailed}. A failed write will produce
 *       no event, so it lowers the expectation.
 *   <li>The informer's handlers call {@link #creationObserved} and {@link #deletionObserved} with
 *       the uid of the object the cache shows.
 * </ol>
 *
 * <p>An expectation is satisfied when every expected event was observed, when the cache has
 * observed a resourceVersion at or after every write's (all writes reported), or when it is older
 * than the TTL (default 5 minutes, as the ReplicaSet controller). Thread-safe.
 *
 * <p>Creations are tracked by uid, not counted: an event handler runs behind the cache (each
 * handler has its own buffer), so an expectation met by the cache's resourceVersion may still see
 * the events of its creates arrive later, while the next pass's creates are expected. Counted,
 * those late events would meet the new expectation before the cache shows the new objects, and the
 * pass after it would create them again. By uid, an event that matches no pending create is ignored
 * (an object reported while creates are in flight is remembered until its create is reported).
 *
 * @param <K> the key type, usually the owner's request
 */
public final class Expectations<K> {

  /** The ReplicaSet controller's expectation timeout. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);

  private final Clock clock;
  private final long ttlNanos;
  private final Object lock = new Object();
  // Guarded by lock. A key is absent when nothing is expected.
  private final Map<K, Pending> pending = new HashMap<>();
  // Guarded by lock. Expectations that ended by timeout rather than by observation.
  private long expiredCount;
  // Null without a registry.
  private final @Nullable Counter expiredCounter;

  private Expectations(Clock clock, Duration ttl, @Nullable Counter expired) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ttlNanos = requirePositive(ttl).toNanos();
    this.expiredCounter = expired;
  }

  private static Duration requirePositive(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive: " + ttl);
    }
    return ttl;
  }

  /** Expectations with the default 5-minute TTL. */
  public static <K> Expectations<K> create(Clock clock) {
    return new Expectations<>(clock, DEFAULT_TTL, null);
  }

  /**
   * Expectations with a custom TTL.
   *
   * @throws IllegalArgumentException if {@code ttl} is not positive
   */
  public static <K> Expectations<K> create(Clock clock, Duration ttl) {
    return new Expectations<>(clock, ttl, null);
  }

  /**
   * Expectations whose timeouts are counted in {@code expectations_expired_total{name}}: a growing
   * count means events are being lost or the cache lags by more than the TTL.
   *
   * @throws IllegalArgumentException if {@code ttl} is not positive
   */
  public static <K> Expectations<K> create(
      Clock clock, Duration ttl, MeterRegistry registry, String name) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(name, "name");
    requirePositive(ttl); // before the counter is registered
    Counter expired =
        Counter.builder("expectations_expired")
            .description("Expectations that ended by timeout instead of being observed")
            .tag("name", name)
            .register(registry);
    return new Expectations<>(clock, ttl, expired);
  }

  /**
   * Records that {@code count} objects are about to be created for {@code key}. Adds to what is
   * still pending.
   *
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public void expectCreations(K key, int count) {
    Objects.requireNonNull(key, "key");
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: " + count);
    }
    synchronized (lock) {
      pendingFor(key).inFlightCreates += count;
    }
  }

  /** Records that the objects with these uids are about to be deleted for {@code key}. */
  public void expectDeletions(K key, Collection<String> uids) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(uids, "uids");
    synchronized (lock) {
      Pending p = pendingFor(key);
      for (String uid : uids) {
        Objects.requireNonNull(uid, "uid");
        p.deletes.add(uid);
        p.unreportedDeletes.add(uid);
      }
    }
  }

  /**
   * A create succeeded: the server created the object {@code uid} at {@code resourceVersion} (when
   * known).
   *
   * @throws NullPointerException if {@code uid} is null
   */
  public void created(K key, String uid, @Nullable String resourceVersion) {
    Objects.requireNonNull(uid, "uid");
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p != null) {
        p.inFlightCreates = Math.max(0, p.inFlightCreates - 1);
        p.noteWrite(resourceVersion);
        if (!p.observedEarly.remove(uid)) {
          p.createdUids.add(uid);
        }
        cleanUp(key, p);
      }
    }
  }

  /** A create failed: no event will come for it. */
  public void creationFailed(K key) {
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p != null) {
        p.inFlightCreates = Math.max(0, p.inFlightCreates - 1);
        cleanUp(key, p);
      }
    }
  }

  /**
   * The cache showed a new object owned by {@code key}, with this {@code uid}. Lowers the
   * expectation only if it is one of the creates reported (or, while creates are in flight, may be
   * one of them); an event of an earlier pass's create, or of another owner of the same key, is
   * ignored.
   */
  public void creationObserved(K key, String uid) {
    Objects.requireNonNull(uid, "uid");
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p == null) {
        return;
      }
      if (p.createdUids.remove(uid)) {
        cleanUp(key, p);
      } else if (p.inFlightCreates > 0) {
        p.observedEarly.add(uid);
      }
    }
  }

  /**
   * A delete was accepted; {@code resourceVersion} is the one the server returned, or null when it
   * returned only a Status.
   */
  public void deleted(K key, String uid, @Nullable String resourceVersion) {
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p != null) {
        p.unreportedDeletes.remove(uid);
        p.noteWrite(resourceVersion);
      }
    }
  }

  /** A delete failed: no event will come for it. */
  public void deletionFailed(K key, String uid) {
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p != null) {
        p.unreportedDeletes.remove(uid);
        p.deletes.remove(uid);
        cleanUp(key, p);
      }
    }
  }

  /**
   * The cache showed the object with {@code uid} deleted or terminating (a deletionTimestamp
   * counts: the object no longer counts toward the owner's replicas).
   */
  public void deletionObserved(K key, String uid) {
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p != null) {
        p.deletes.remove(uid);
        cleanUp(key, p);
      }
    }
  }

  /** Same as {@link #satisfied(Object, String)} without resourceVersion tracking. */
  public boolean satisfied(K key) {
    return satisfied(key, null);
  }

  /**
   * True when the reconciler may act on the cache for {@code key}: nothing pending, every write
   * visible in a cache that has observed {@code cacheResourceVersion}, or the expectation expired.
   * A met or expired expectation is cleared.
   */
  public boolean satisfied(K key, @Nullable String cacheResourceVersion) {
    Objects.requireNonNull(key, "key");
    synchronized (lock) {
      Pending p = pending.get(key);
      if (p == null) {
        return true;
      }
      if (p.met()) {
        pending.remove(key);
        return true;
      }
      if (p.caughtUp(cacheResourceVersion)) {
        pending.remove(key);
        return true;
      }
      if (clock.nanoTime() - p.sinceNanos >= ttlNanos) {
        pending.remove(key);
        expiredCount++;
        if (expiredCounter != null) {
          expiredCounter.increment();
        }
        return true;
      }
      return false;
    }
  }

  /** Drops everything pending for {@code key}, e.g. when the owner is deleted. */
  public void forget(K key) {
    synchronized (lock) {
      pending.remove(key);
    }
  }

  /** Creations still expected for {@code key}: in flight, or reported and not yet observed. */
  public int pendingCreations(K key) {
    synchronized (lock) {
      Pending p = pending.get(key);
      return p == null ? 0 : p.inFlightCreates + p.createdUids.size();
    }
  }

  /** Uids whose deletion is still expected for {@code key}. */
  public Set<String> pendingDeletions(K key) {
    synchronized (lock) {
      Pending p = pending.get(key);
      return p == null ? Set.of() : Set.copyOf(p.deletes);
    }
  }

  /** How many expectations ended by the TTL instead of being observed: a sign of lost events. */
  public long expiredCount() {
    synchronized (lock) {
      return expiredCount;
    }
  }

  private Pending pendingFor(K key) {
    return pending.computeIfAbsent(key, k -> new Pending(clock.nanoTime()));
  }

  private void cleanUp(K key, Pending p) {
    if (p.met() && p.allReported()) {
      pending.remove(key);
    }
  }

  /** Mutable state of one key; only touched under the enclosing lock. */
  private static final class Pending {
    final long sinceNanos;
    // Creates sent (or about to be) whose outcome is not reported yet.
    int inFlightCreates;
    // Uids of reported creates the cache has not shown yet.
    final Set<String> createdUids = new HashSet<>();
    // Uids the cache showed while creates were in flight, not (yet) matched to a reported create.
    final Set<String> observedEarly = new HashSet<>();
    final Set<String> deletes = new HashSet<>();
    final Set<String> unreportedDeletes = new HashSet<>();
    @Nullable String lastWrite;
    // A write whose resourceVersion is unknown cannot be matched against the cache.
    boolean unversionedWrite;

    Pending(long sinceNanos) {
      this.sinceNanos = sinceNanos;
    }

    boolean met() {
      return inFlightCreates == 0 && createdUids.isEmpty() && deletes.isEmpty();
    }

    boolean allReported() {
      return inFlightCreates == 0 && unreportedDeletes.isEmpty();
    }

    boolean caughtUp(@Nullable String cacheResourceVersion) {
      return allReported()
          && !unversionedWrite
          && ResourceVersions.atLeast(cacheResourceVersion, lastWrite);
    }

    void noteWrite(@Nullable String resourceVersion) {
      if (resourceVersion == null || !ResourceVersions.isNumeric(resourceVersion)) {
        unversionedWrite = true;
      } else if (lastWrite == null || ResourceVersions.compare(resourceVersion, lastWrite) > 0) {
        lastWrite = resourceVersion;
      }
    }
  }
}
