package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The store's newest changes, oldest first, at most a window of them: what a watch resumes from and
 * what a list at an older revision is rebuilt from. Not thread-safe: guarded by the store's lock.
 */
final class ChangeHistory {

  private final int window;
  private final ArrayDeque<StoredEvent> changes = new ArrayDeque<>();
  // Watches may resume from, and lists read at, any revision >= compacted.
  private long compacted;

  ChangeHistory(int window) {
    if (window < 1) {
      throw new IllegalArgumentException("historyWindow must be positive: " + window);
    }
    this.window = window;
  }

  /** Keeps {@code event}, dropping the oldest change beyond the window. */
  void append(StoredEvent event) {
    changes.addLast(event);
    while (changes.size() > window) {
      compacted = changes.removeFirst().resourceVersion();
    }
  }

  /** Drops every change: resuming or listing at a revision before {@code revision} is a 410. */
  void compact(long revision) {
    changes.clear();
    compacted = revision;
  }

  /**
   * The changes of one resource after {@code fromRevision}, oldest first.
   *
   * @throws StatusError 410 when the revision is older than the history
   */
  List<StoredEvent> since(String storageKey, long fromRevision) {
    if (fromRevision < compacted) {
      throw StatusError.gone("too old resource version: " + fromRevision + " (" + compacted + ")");
    }
    List<StoredEvent> since = new ArrayList<>();
    for (StoredEvent event : changes) {
      if (event.resourceVersion() > fromRevision && event.storageKey().equals(storageKey)) {
        since.add(event);
      }
    }
    return since;
  }

  /**
   * The objects of one resource at revision {@code at}, from {@code current} with the later changes
   * undone.
   *
   * @throws StatusError 410 when the revision is older than the history
   */
  NavigableMap<String, ObjectNode> stateAt(
      String storageKey, NavigableMap<String, ObjectNode> current, long at) {
    if (at < compacted) {
      throw StatusError.gone(
          "The resourceVersion for the provided list is too old: " + at + " (" + compacted + ")");
    }
    NavigableMap<String, ObjectNode> state = new TreeMap<>(current);
    Iterator<StoredEvent> newestFirst = changes.descendingIterator();
    while (newestFirst.hasNext()) {
      StoredEvent event = newestFirst.next();
      if (event.resourceVersion() <= at) {
        break;
      }
      if (!event.storageKey().equals(storageKey)) {
        continue;
      }
      if (event.type() == StoredEvent.Type.ADDED) {
        state.remove(event.key());
      } else {
        state.put(event.key(), event.previous());
      }
    }
    return state;
  }
}
