package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The versioned object store: every object of every resource, one global resourceVersion, a bounded
 * history of changes, and the open watches.
 *
 * <p>All state is guarded by {@link #lock}. Writes, history appends and watch dispatch happen under
 * it, so every watcher sees changes in revision order without gaps. Stored objects are immutable: a
 * writer builds a new object and the store stamps its resourceVersion and stores a frozen copy
 * ({@link FrozenJson}: compact, and writing to it throws) before publishing it. Commit listeners
 * and watchers run under the lock and must not block.
 */
public final class ObjectStore {

  /** Computes the next state of one object under the store lock. */
  @FunctionalInterface
  public interface Mutation {
    /**
     * Returns the new object (a fresh, unshared node), {@code current} itself for "no change", or
     * null to delete. Throws {@link StatusError} to reject the write.
     */
    ObjectNode apply(ObjectNode current);
  }

  /** Called after each commit, under the store lock (CRD registration, later GC). */
  public interface CommitListener {
    void committed(StoredEvent event);
  }

  /** The outcome of a write. */
  public record WriteResult(ObjectNode object, StoredEvent event) {
    public boolean changed() {
      return event != null;
    }
  }

  /** A consistent list of one resource. */
  public record ListSnapshot(long resourceVersion, List<ObjectNode> objects) {}

  private final Object lock = new Object();
  // Guarded by lock: the last assigned revision; strictly increasing.
  private long revision;
  // Guarded by lock: storage key -> object key -> immutable object.
  private final Map<String, NavigableMap<String, ObjectNode>> objects = new HashMap<>();
  // Guarded by lock: storage key -> object key -> the change that stored the current object (its
  // object() is the one in objects), whose serialized form GETs share. Same keys as objects.
  private final Map<String, Map<String, StoredEvent>> lastChanges = new HashMap<>();
  // Guarded by lock: the newest changes, for watch resumption and lists at a revision.
  private final ChangeHistory history;
  // Guarded by lock: storage key -> open watches.
  private final Map<String, List<StoreWatcher>> watchers = new HashMap<>();
  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

  public ObjectStore(int historyWindow) {
    this.history = new ChangeHistory(historyWindow);
  }

  public void addCommitListener(CommitListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  public void removeCommitListener(CommitListener listener) {
    listeners.remove(listener);
  }

  public static String key(String namespace, String name) {
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  public long revision() {
    synchronized (lock) {
      return revision;
    }
  }

  public ObjectNode get(String storageKey, String key) {
    synchronized (lock) {
      NavigableMap<String, ObjectNode> map = objects.get(storageKey);
      return map == null ? null : map.get(key);
    }
  }

  /** The change that stored the current object (for its serialized form), or null if absent. */
  public StoredEvent lastChange(String storageKey, String key) {
    synchronized (lock) {
      Map<String, StoredEvent> map = lastChanges.get(storageKey);
      return map == null ? null : map.get(key);
    }
  }

  /**
   * Applies {@code mutation} to the current state of one object atomically. A mutation returning an
   * object equal to the current one (ignoring resourceVersion) is a no-op: no new revision.
   */
  public WriteResult write(String storageKey, String key, Mutation mutation) {
    synchronized (lock) {
      NavigableMap<String, ObjectNode> map =
          objects.computeIfAbsent(storageKey, k -> new TreeMap<>());
      ObjectNode current = map.get(key);
      ObjectNode next = mutation.apply(current);
      if (next == current || (next == null && current == null)) {
        return new WriteResult(current, null);
      }
      if (next != null && current != null && sameIgnoringVersion(current, next)) {
        return new WriteResult(current, null);
      }
      long rv = ++revision;
      StoredEvent event;
      Map<String, StoredEvent> changes =
          lastChanges.computeIfAbsent(storageKey, k -> new HashMap<>());
      if (next == null) {
        ObjectNode last = current.deepCopy();
        Json.metadata(last).put("resourceVersion", Long.toString(rv));
        last = FrozenJson.freeze(last);
        map.remove(key);
        changes.remove(key);
        event = new StoredEvent(rv, StoredEvent.Type.DELETED, storageKey, key, last, current);
      } else {
        Json.metadata(next).put("resourceVersion", Long.toString(rv));
        // Stored compactly and read-only (a pod costs a third of its parsed tree): FrozenJson.
        next = FrozenJson.freeze(next);
        map.put(key, next);
        StoredEvent.Type type =
            current == null ? StoredEvent.Type.ADDED : StoredEvent.Type.MODIFIED;
        event = new StoredEvent(rv, type, storageKey, key, next, current);
        changes.put(key, event);
      }
      commit(event);
      return new WriteResult(event.object(), event);
    }
  }

  /**
   * Computes what {@link #write} would store, without storing it ({@code dryRun=All}): no new
   * revision, no event. The result holds the would-be object (for a delete: the current one).
   */
  public WriteResult preview(String storageKey, String key, Mutation mutation) {
    synchronized (lock) {
      NavigableMap<String, ObjectNode> map = objects.get(storageKey);
      ObjectNode current = map == null ? null : map.get(key);
      ObjectNode next = mutation.apply(current);
      return new WriteResult(next == null ? current : next, null);
    }
  }

  private static boolean sameIgnoringVersion(ObjectNode current, ObjectNode next) {
    String nextRv = Json.resourceVersion(next);
    String currentRv = Json.resourceVersion(current);
    ObjectNode probe = next;
    if (!Objects.equals(nextRv, currentRv)) {
      probe = next.deepCopy();
      if (currentRv == null) {
        Json.metadata(probe).remove("resourceVersion");
      } else {
        Json.metadata(probe).put("resourceVersion", currentRv);
      }
    }
    return probe.equals(current);
  }

  private void commit(StoredEvent event) {
    history.append(event);
    for (StoreWatcher watcher : watchers.getOrDefault(event.storageKey(), List.of())) {
      watcher.event(event);
    }
    for (CommitListener listener : listeners) {
      listener.committed(event);
    }
  }

  /** The objects of one resource whose keys start with {@code keyPrefix}, at a revision. */
  public ListSnapshot list(String storageKey, String keyPrefix, Long atRevision) {
    return list(storageKey, keyPrefix, null, atRevision);
  }

  /**
   * The objects of one resource whose keys start with {@code keyPrefix} and follow {@code afterKey}
   * (null: from the first), at a revision: the rest of a paged list.
   */
  public ListSnapshot list(String storageKey, String keyPrefix, String afterKey, Long atRevision) {
    synchronized (lock) {
      NavigableMap<String, ObjectNode> map = objects.getOrDefault(storageKey, new TreeMap<>());
      long at = atRevision == null ? revision : atRevision;
      if (at > revision) {
        throw StatusError.tooLargeResourceVersion(at, revision);
      }
      if (at < revision) {
        map = history.stateAt(storageKey, map, at);
      }
      List<ObjectNode> result = new ArrayList<>();
      NavigableMap<String, ObjectNode> tail =
          afterKey != null && afterKey.compareTo(keyPrefix) >= 0
              ? map.tailMap(afterKey, false)
              : map.tailMap(keyPrefix, true);
      for (Map.Entry<String, ObjectNode> e : tail.entrySet()) {
        if (!e.getKey().startsWith(keyPrefix)) {
          break;
        }
        result.add(e.getValue());
      }
      return new ListSnapshot(at, result);
    }
  }

  /**
   * Opens a watch. Without a revision, the watcher first receives ADDED for every current object
   * and then {@link StoreWatcher#initialEventsEnd}; with one, it receives every retained change
   * after it. Live changes follow without gaps.
   *
   * @return a handle that closes the watch
   * @throws StatusError 410 when the revision is older than the retained history
   */
  public Runnable watch(String storageKey, Long fromRevision, StoreWatcher watcher) {
    synchronized (lock) {
      if (fromRevision == null) {
        for (Map.Entry<String, ObjectNode> e :
            objects.getOrDefault(storageKey, new TreeMap<>()).entrySet()) {
          long rv = Long.parseLong(Json.resourceVersion(e.getValue()));
          watcher.event(
              new StoredEvent(
                  rv, StoredEvent.Type.ADDED, storageKey, e.getKey(), e.getValue(), null));
        }
        watcher.initialEventsEnd(revision);
      } else {
        history.since(storageKey, fromRevision).forEach(watcher::event);
      }
      watchers.computeIfAbsent(storageKey, k -> new CopyOnWriteArrayList<>()).add(watcher);
      return () -> {
        synchronized (lock) {
          List<StoreWatcher> list = watchers.get(storageKey);
          if (list != null) {
            list.remove(watcher);
          }
        }
      };
    }
  }

  /** Sends a bookmark at the current revision to {@code watcher}, ordered with its events. */
  public void bookmark(StoreWatcher watcher) {
    synchronized (lock) {
      watcher.bookmark(revision);
    }
  }

  /** Drops the whole history: every watch resume or exact list before now gets 410. */
  public void compact() {
    synchronized (lock) {
      history.compact(revision);
    }
  }

  /** Ends every open watch; clients see the stream end and watch again. */
  public void terminateWatches() {
    List<StoreWatcher> all = new ArrayList<>();
    synchronized (lock) {
      watchers.values().forEach(all::addAll);
    }
    all.forEach(StoreWatcher::terminate);
  }

  /** Every stored object by storage key and key (objects are immutable, so they are shared). */
  public Map<String, Map<String, ObjectNode>> copyObjects() {
    synchronized (lock) {
      Map<String, Map<String, ObjectNode>> copy = new HashMap<>();
      objects.forEach((storageKey, map) -> copy.put(storageKey, new TreeMap<>(map)));
      return copy;
    }
  }

  /**
   * Makes the store hold exactly {@code target}, as ordinary changes: each differing object is
   * deleted, added or modified with a new revision and its watch event. Objects keep their uid and
   * timestamps; CRDs are restored first so their resources are served again.
   */
  public void restore(Map<String, Map<String, ObjectNode>> target) {
    synchronized (lock) {
      StoreRestore.restore(this, target);
    }
  }

  /** The number of open watches (for tests and benchmarks). */
  public int watchCount() {
    synchronized (lock) {
      return watchers.values().stream().mapToInt(List::size).sum();
    }
  }
}
