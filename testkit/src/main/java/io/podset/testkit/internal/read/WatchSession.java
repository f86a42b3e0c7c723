package io.podset.testkit.internal.read;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.FieldSelector;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoreWatcher;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.tables.Tables;
import io.podset.testkit.internal.watch.WatchFrame;
import io.podset.testkit.internal.watch.WatchSink;
import java.time.Duration;
import java.util.List;

/**
 * One open watch: filters the store's changes by namespace and selectors, turns selector
 * transitions into ADDED/DELETED, renders events (objects or Table rows) and sends them to the
 * sink, with periodic bookmarks and the timeout. Events arrive under the store lock, in order.
 */
public final class WatchSession implements StoreWatcher {

  /** What the client asked for. */
  public record Options(
      String keyPrefix,
      LabelSelector labels,
      FieldSelector fields,
      boolean bookmarks,
      boolean initialEventsEnd,
      Duration timeout,
      boolean table,
      String includeObject) {}

  private final ResourceType type;
  private final Options options;
  private final WatchSink sink;
  private final Clock clock;
  private final Object lock = new Object();
  // Guarded by lock: whether close() ran; set once.
  private boolean closed;
  // Guarded by lock: the handles to cancel on close.
  private Runnable unregister = () -> {};
  private Clock.Cancellable timeoutTimer = () -> {};
  private Clock.Cancellable bookmarkTimer = () -> {};

  public WatchSession(ResourceType type, Options options, WatchSink sink, Clock clock) {
    this.type = type;
    this.options = options;
    this.sink = sink;
    this.clock = clock;
  }

  /** Opens the watch on the store; a 410 becomes an ERROR event followed by the end of stream. */
  public Runnable start(ObjectStore store, Long fromRevision, Duration bookmarkInterval) {
    try {
      Runnable handle = store.watch(type.storageKey(), fromRevision, this);
      boolean alreadyClosed;
      synchronized (lock) {
        alreadyClosed = closed;
        if (!closed) {
          unregister = handle;
          if (options.timeout() != null) {
            timeoutTimer = clock.schedule(options.timeout(), this::close);
          }
          if (options.bookmarks()) {
            scheduleBookmark(store, bookmarkInterval);
          }
        }
      }
      if (alreadyClosed) {
        handle.run();
      }
    } catch (StatusError e) {
      sink.send(WatchFrame.of("ERROR", Json.bytes(e.toStatus())));
      close();
    }
    return this::close;
  }

  private void scheduleBookmark(ObjectStore store, Duration interval) {
    bookmarkTimer =
        clock.schedule(
            interval,
            () -> {
              synchronized (lock) {
                if (closed) {
                  return;
                }
              }
              store.bookmark(this);
              synchronized (lock) {
                if (!closed) {
                  scheduleBookmark(store, interval);
                }
              }
            });
  }

  @Override
  public void terminate() {
    close();
  }

  void close() {
    Runnable handle;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      handle = unregister;
      timeoutTimer.cancel();
      bookmarkTimer.cancel();
    }
    // Outside our lock: the store calls us under its lock, so never hold ours while taking it.
    handle.run();
    sink.close();
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  private boolean selects(ObjectNode object) {
    return object != null
        && options.labels().matches(object)
        && options.fields().matches(type.rules().fromStorage(object));
  }

  @Override
  public void event(StoredEvent e) {
    if (!e.key().startsWith(options.keyPrefix()) || isClosed()) {
      return;
    }
    switch (e.type()) {
      case ADDED -> {
        if (selects(e.object())) {
          send("ADDED", e, e.object());
        }
      }
      case MODIFIED -> {
        boolean now = selects(e.object());
        boolean before = selects(e.previous());
        if (now) {
          send(before ? "MODIFIED" : "ADDED", e, e.object());
        } else if (before) {
          ObjectNode last = e.previous().deepCopy();
          Json.metadata(last).put("resourceVersion", Long.toString(e.resourceVersion()));
          send("DELETED", null, last);
        }
      }
      case DELETED -> {
        if (selects(e.previous())) {
          send("DELETED", e, e.object());
        }
      }
    }
  }

  private void send(String eventType, StoredEvent stored, ObjectNode object) {
    if (!options.table()
        && stored != null
        && stored.type().name().equals(eventType)
        && type.apiVersion().equals(object.path("apiVersion").asText())) {
      // The common case: the change as stored, serialized once for every watch.
      sink.send(stored.frame());
      return;
    }
    byte[] json;
    if (options.table()) {
      ObjectNode rendered = ObjectMeta.render(type, object);
      json =
          Json.bytes(
              Tables.table(
                  type,
                  List.of(rendered),
                  Json.resourceVersion(rendered),
                  options.includeObject(),
                  clock.instant()));
    } else if (stored != null && type.apiVersion().equals(object.path("apiVersion").asText())) {
      json = stored.objectJson();
    } else {
      json = Json.bytes(ObjectMeta.render(type, object));
    }
    sink.send(WatchFrame.of(eventType, json));
  }

  @Override
  public void initialEventsEnd(long resourceVersion) {
    if (options.initialEventsEnd()) {
      sendBookmark(resourceVersion, true);
    }
  }

  @Override
  public void bookmark(long resourceVersion) {
    if (options.bookmarks() && !isClosed()) {
      sendBookmark(resourceVersion, false);
    }
  }

  private void sendBookmark(long resourceVersion, boolean initialEventsEnd) {
    ObjectNode object = Json.object();
    object.put("kind", type.kind());
    object.put("apiVersion", type.apiVersion());
    ObjectNode meta = object.putObject("metadata");
    meta.put("resourceVersion", Long.toString(resourceVersion));
    if (initialEventsEnd) {
      meta.putObject("annotations").put("k8s.io/initial-events-end", "true");
    }
    sink.send(WatchFrame.of("BOOKMARK", Json.bytes(object)));
  }
}
