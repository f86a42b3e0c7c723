package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.cache.ObjectKey;
import io.podset.runtime.cache.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue of keys, each with the list of deltas that happened to that object since it was last
 * popped (client-go's DeltaFIFO).
 *
 * <p>Producers (the reflector) call {@link #add}, {@link #update}, {@link #delete}, {@link
 * #replace} and {@link #resync}; one consumer (the informer's processing thread) calls {@link
 * #pop}, which hands all deltas of the oldest key to a processor while the FIFO is locked, so that
 * the cache ({@code knownObjects}) is updated before any producer looks at it again.
 *
 * <p>Direct processing (optional, {@link #DeltaFifo(Store, Runnable, Consumer, Processor)}): a
 * watch change ({@link #add}, {@link #update}, {@link #delete}) that arrives while nothing is
 * queued is not queued at all: the producer runs the direct processor on it at once, under the
 * FIFO's lock, exactly where a {@link #pop} would have run it next. That saves the hand-off to the
 * consumer's thread (a wake-up and a context switch per event, the main part of an event's latency
 * on a busy machine) while keeping the guarantees: one processor at a time, in arrival order, the
 * cache updated before any producer looks at it again. Lists and resyncs are always queued.
 *
 * <p>Rules: a key is queued once however many deltas it collects; only two consecutive DELETED
 * deltas collapse (keeping the one that is not a tombstone); {@link #replace} queues REPLACED for
 * every listed object and a tombstone for every known or queued key missing from the list; {@link
 * #resync} queues SYNC for each cached key that has nothing queued; {@link #hasSynced} turns true
 * once every key queued by the first replace has been popped.
 */
final class DeltaFifo<T extends HasMetadata> {

  private static final Logger log = LoggerFactory.getLogger(DeltaFifo.class);

  /** Receives the popped key with its deltas, oldest first. */
  @FunctionalInterface
  interface Processor<T extends HasMetadata> {
    void process(String key, List<Delta<T>> deltas);
  }

  private final Store<T> knownObjects;
  private final Runnable onSynced;
  private final Consumer<String> onObserved;
  // Runs watch changes that find the FIFO empty on the producer's thread; null: always queue.
  private final @Nullable Processor<T> direct;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();

  // All guarded by lock.
  // Invariant: a key is in items iff it is in queue, exactly once; its entry list is never empty.
  private final Map<String, List<Entry<T>>> items = new HashMap<>();
  private final ArrayDeque<String> queue = new ArrayDeque<>();
  // True once the first replace ran; initialPopulation counts its keys not yet popped.
  private boolean populated;
  private int initialPopulation;
  private boolean syncedReported;
  private boolean closed;
  // The newest resourceVersion handed to this FIFO (objects, lists, bookmarks).
  private @Nullable String queuedResourceVersion;
  // Changes queued and not yet popped, by arrival sequence, each mapped to the resourceVersion
  // reached just before it arrived. Every change up to the first entry's version is in the cache.
  private final TreeMap<Long, String> pending = new TreeMap<>();
  private long sequence;
  // The newest resourceVersion such that every change up to it is processed into knownObjects.
  private @Nullable String observedResourceVersion;

  /**
   * @param knownObjects the cache the processor keeps (for deletions and resyncs)
   * @param onSynced run once, outside the lock, when {@link #hasSynced} turns true
   * @param onObserved receives, outside the lock, each new {@link #observedResourceVersion}
   */
  DeltaFifo(Store<T> knownObjects, Runnable onSynced, Consumer<String> onObserved) {
    this.knownObjects = Objects.requireNonNull(knownObjects, "knownObjects");
    this.onSynced = Objects.requireNonNull(onSynced, "onSynced");
    this.onObserved = Objects.requireNonNull(onObserved, "onObserved");
    this.direct = null;
  }

  /**
   * A FIFO with direct processing (see the class documentation): {@code direct} must be the
   * processor the consumer passes to {@link #pop}.
   */
  DeltaFifo(
      Store<T> knownObjects, Runnable onSynced, Consumer<String> onObserved, Processor<T> direct) {
    this.knownObjects = Objects.requireNonNull(knownObjects, "knownObjects");
    this.onSynced = Objects.requireNonNull(onSynced, "onSynced");
    this.onObserved = Objects.requireNonNull(onObserved, "onObserved");
    this.direct = Objects.requireNonNull(direct, "direct");
  }

  /** Queues an ADDED delta. */
  void add(T obj) {
    change(DeltaType.ADDED, obj, false);
  }

  /** Queues an UPDATED delta. */
  void update(T obj) {
    change(DeltaType.UPDATED, obj, false);
  }

  /**
   * Queues a DELETED delta, unless the key is neither cached nor queued (nothing to delete).
   *
   * @return whether a delta was queued
   */
  boolean delete(T obj) {
    return change(DeltaType.DELETED, obj, true);
  }

  /**
   * Replaces the whole state with {@code objects} listed at {@code resourceVersion}: REPLACED for
   * each object, and a tombstone for each key that is cached or queued but not listed.
   */
  void replace(Collection<? extends T> objects, @Nullable String resourceVersion) {
    Objects.requireNonNull(objects, "objects");
    boolean synced;
    String observed;
    lock.lock();
    try {
      String before = queuedResourceVersion;
      Set<String> listed = new HashSet<>();
      for (T obj : objects) {
        String key = keyOf(obj);
        listed.add(key);
        queueLocked(key, Delta.of(DeltaType.REPLACED, obj), before);
      }
      for (Map.Entry<String, List<Entry<T>>> entry : List.copyOf(items.entrySet())) {
        if (!listed.contains(entry.getKey())) {
          List<Entry<T>> entries = entry.getValue();
          T newest = entries.get(entries.size() - 1).delta().object();
          queueLocked(entry.getKey(), Delta.tombstone(newest), before);
        }
      }
      for (String key : knownObjects.listKeys()) {
        if (!listed.contains(key) && !items.containsKey(key)) {
          knownObjects
              .getByKey(key)
              .ifPresent(lastKnown -> queueLocked(key, Delta.tombstone(lastKnown), before));
        }
      }
      if (!populated) {
        populated = true;
        initialPopulation = queue.size();
      }
      queuedResourceVersion = ResourceVersions.newer(queuedResourceVersion, resourceVersion);
      synced = checkSyncedLocked();
      observed = checkObservedLocked();
    } finally {
      lock.unlock();
    }
    notifyOutsideLock(synced, observed);
  }

  /** Queues a SYNC delta for every cached key that has no deltas queued. */
  void resync() {
    lock.lock();
    try {
      for (String key : knownObjects.listKeys()) {
        if (!items.containsKey(key)) {
          knownObjects
              .getByKey(key)
              .ifPresent(obj -> queueLocked(key, Delta.of(DeltaType.SYNC, obj), null));
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Records a resourceVersion reached without a change (a watch bookmark). */
  void advanceResourceVersion(String resourceVersion) {
    String observed;
    lock.lock();
    try {
      queuedResourceVersion = ResourceVersions.newer(queuedResourceVersion, resourceVersion);
      observed = checkObservedLocked();
    } finally {
      lock.unlock();
    }
    notifyOutsideLock(false, observed);
  }

  /**
   * Waits for a key, removes it with its deltas and runs {@code processor} on them while holding
   * the FIFO's lock. An exception from the processor is logged and the deltas are dropped.
   *
   * @return false once the FIFO is closed
   * @throws InterruptedException if interrupted while waiting
   */
  boolean pop(Processor<T> processor) throws InterruptedException {
    boolean synced;
    String observed;
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !closed) {
        notEmpty.await();
      }
      if (closed) {
        return false;
      }
      String key = queue.poll();
      List<Entry<T>> entries = items.remove(key);
      if (entries == null) {
        throw new IllegalStateException("key '" + key + "' is queued without deltas");
      }
      if (initialPopulation > 0) {
        initialPopulation--;
      }
      List<Delta<T>> deltas = new ArrayList<>(entries.size());
      for (Entry<T> entry : entries) {
        deltas.add(entry.delta());
      }
      try {
        processor.process(key, List.copyOf(deltas));
      } catch (RuntimeException e) {
        log.error("Processing deltas of {} failed; they are dropped", key, e);
      }
      for (Entry<T> entry : entries) {
        if (entry.seq() >= 0) {
          pending.remove(entry.seq());
        }
      }
      synced = checkSyncedLocked();
      observed = checkObservedLocked();
    } finally {
      lock.unlock();
    }
    notifyOutsideLock(synced, observed);
    return true;
  }

  /** Whether the first replace happened and all the keys it queued have been popped. */
  boolean hasSynced() {
    lock.lock();
    try {
      return populated && initialPopulation == 0;
    } finally {
      lock.unlock();
    }
  }

  /** The newest resourceVersion whose change is reflected in the cache, or null. */
  @Nullable String observedResourceVersion() {
    lock.lock();
    try {
      return observedResourceVersion;
    } finally {
      lock.unlock();
    }
  }

  /** The keys queued, oldest first. */
  List<String> queuedKeys() {
    lock.lock();
    try {
      return List.copyOf(queue);
    } finally {
      lock.unlock();
    }
  }

  /** The deltas queued for a key, oldest first (empty when nothing is queued). */
  List<Delta<T>> deltas(String key) {
    lock.lock();
    try {
      List<Entry<T>> entries = items.get(key);
      List<Delta<T>> deltas = new ArrayList<>();
      if (entries != null) {
        for (Entry<T> entry : entries) {
          deltas.add(entry.delta());
        }
      }
      return List.copyOf(deltas);
    } finally {
      lock.unlock();
    }
  }

  /** Wakes up and ends {@link #pop}; later changes are still accepted but never popped. */
  void close() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues (or processes directly) one delta; with {@code onlyIfKnown}, only when the key is cached
   * or queued. The queued resourceVersion moves on either way.
   *
   * @return whether the delta was queued or processed
   */
  private boolean change(DeltaType type, T obj, boolean onlyIfKnown) {
    Objects.requireNonNull(obj, "obj");
    String key = keyOf(obj);
    boolean queued;
    String observed = null;
    lock.lock();
    try {
      queued = !onlyIfKnown || items.containsKey(key) || knownObjects.getByKey(key).isPresent();
      Delta<T> delta = Delta.of(type, obj);
      boolean processed = queued && processDirectlyLocked(key, delta);
      if (queued && !processed) {
        queueLocked(key, delta, queuedResourceVersion);
      }
      queuedResourceVersion =
          ResourceVersions.newer(queuedResourceVersion, obj.getMetadata().getResourceVersion());
      if (processed) {
        observed = checkObservedLocked();
      }
    } finally {
      lock.unlock();
    }
    notifyOutsideLock(false, observed);
    return queued;
  }

  /**
   * Runs the direct processor on one change if that is allowed: a direct processor is set, the
   * first replace happened, nothing is queued (so this change is next in order, and every change
   * before it is in the cache) and the FIFO is open. The caller then advances the resourceVersions
   * as if the change had been queued and popped at once.
   *
   * @return whether the change was processed (else the caller queues it)
   */
  private boolean processDirectlyLocked(String key, Delta<T> delta) {
    if (direct == null || !populated || closed || !queue.isEmpty()) {
      return false;
    }
    try {
      direct.process(key, List.of(delta));
    } catch (RuntimeException e) {
      log.error("Processing deltas of {} failed; they are dropped", key, e);
    }
    return true;
  }

  /**
   * Appends a delta to the key's list. {@code before} is the resourceVersion reached before this
   * change; a null {@code before} marks a delta that carries no new state (SYNC).
   */
  private void queueLocked(String key, Delta<T> delta, @Nullable String before) {
    boolean change = delta.type() != DeltaType.SYNC;
    List<Entry<T>> entries = items.get(key);
    if (entries == null) {
      entries = new ArrayList<>(2);
      entries.add(new Entry<>(delta, change ? track(before) : -1));
      items.put(key, entries);
      queue.add(key);
      notEmpty.signal();
      return;
    }
    Entry<T> last = entries.get(entries.size() - 1);
    if (delta.type() == DeltaType.DELETED && last.delta().type() == DeltaType.DELETED) {
      // Two consecutive deletions of one object are one deletion; keep the more informative one.
      if (!delta.finalStateUnknown()) {
        entries.set(entries.size() - 1, new Entry<>(delta, last.seq()));
      }
      return;
    }
    entries.add(new Entry<>(delta, change ? track(before) : -1));
  }

  private long track(@Nullable String before) {
    long seq = sequence++;
    pending.put(seq, before == null ? "" : before);
    return seq;
  }

  private boolean checkSyncedLocked() {
    if (!syncedReported && populated && initialPopulation == 0) {
      syncedReported = true;
      return true;
    }
    return false;
  }

  /** Returns the new observed resourceVersion if it advanced, else null. */
  private @Nullable String checkObservedLocked() {
    String before = observedResourceVersion;
    if (pending.isEmpty()) {
      // Every change handed to the FIFO is in the cache, including list and bookmark versions.
      observedResourceVersion =
          ResourceVersions.newer(observedResourceVersion, queuedResourceVersion);
    } else {
      // Changes arrive in resourceVersion order: all those before the oldest pending one are in.
      observedResourceVersion =
          ResourceVersions.newer(observedResourceVersion, pending.firstEntry().getValue());
    }
    return Objects.equals(before, observedResourceVersion) ? null : observedResourceVersion;
  }

  private void notifyOutsideLock(boolean synced, @Nullable String observed) {
    if (synced) {
      onSynced.run();
    }
    if (observed != null) {
      onObserved.accept(observed);
    }
  }

  private static String keyOf(HasMetadata obj) {
    return ObjectKey.of(obj).toString();
  }

  /** A queued delta and its arrival sequence (-1 when it carries no new state). */
  private record Entry<T extends HasMetadata>(Delta<T> delta, long seq) {}
}
