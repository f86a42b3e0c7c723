package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.cache.ObjectKey;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One watch opened by a {@link Reflector}: applies its events to the FIFO until it ends, and
 * records how it ended.
 *
 * <p>For a streaming list the session first collects the initial events and replaces the FIFO's
 * content at the bookmark that ends them, then goes on as a plain watch. Once {@link #finish} ran
 * (by the watch's end, the reflector or a timer), late events from the watch are ignored.
 */
final class WatchSession<T extends HasMetadata> implements WatchListener<T> {

  private final Reflector<T> reflector;
  private final CompletableFuture<Void> ended = new CompletableFuture<>();

  // All guarded by this.
  private boolean initial;
  private final Map<String, T> initialState = new LinkedHashMap<>();
  private boolean synced;
  private boolean unsupported;
  private boolean expired;
  private boolean done;
  private @Nullable RuntimeException cause;
  private long events;

  WatchSession(Reflector<T> reflector, boolean streamingList) {
    this.reflector = reflector;
    this.initial = streamingList;
  }

  @Override
  public synchronized void onEvent(WatchEvent<T> event) {
    if (done) {
      return;
    }
    reflector.received(event);
    if (events == 0) {
      reflector.watchConfirmed();
    }
    try {
      apply(event);
      events++;
    } catch (RuntimeException e) {
      finish(e);
    }
  }

  private void apply(WatchEvent<T> event) {
    if (initial) {
      collectInitial(event);
      return;
    }
    DeltaFifo<T> fifo = reflector.fifo();
    if (event instanceof WatchEvent.Added<T> added) {
      fifo.add(reflector.transform(added.object()));
    } else if (event instanceof WatchEvent.Modified<T> modified) {
      fifo.update(reflector.transform(modified.object()));
    } else if (event instanceof WatchEvent.Deleted<T> deleted) {
      fifo.delete(reflector.transform(deleted.object()));
    } else if (event instanceof WatchEvent.Bookmark<T> bookmark) {
      fifo.advanceResourceVersion(bookmark.resourceVersion());
    }
    reflector.observed(event.resourceVersion());
  }

  private void collectInitial(WatchEvent<T> event) {
    if (event instanceof WatchEvent.Added<T> added) {
      T obj = reflector.transform(added.object());
      initialState.put(ObjectKey.of(obj).toString(), obj);
    } else if (event instanceof WatchEvent.Modified<T> modified) {
      T obj = reflector.transform(modified.object());
      initialState.put(ObjectKey.of(obj).toString(), obj);
    } else if (event instanceof WatchEvent.Deleted<T> deleted) {
      initialState.remove(ObjectKey.of(deleted.object()).toString());
    } else if (event instanceof WatchEvent.Bookmark<T> bookmark) {
      if (!bookmark.endsInitialEvents()) {
        // A server that ignores sendInitialEvents sends plain bookmarks: it cannot stream a list.
        unsupported = true;
        finish(null);
        return;
      }
      reflector.fifo().replace(initialState.values(), bookmark.resourceVersion());
      reflector.synced(bookmark.resourceVersion());
      initialState.clear();
      initial = false;
      synced = true;
    }
  }

  @Override
  public void onClose(@Nullable RuntimeException error) {
    finish(error);
  }

  /** Ends the session; the first call wins. */
  synchronized void finish(@Nullable RuntimeException error) {
    if (done) {
      return;
    }
    done = true;
    cause = error;
    initialState.clear();
    ended.complete(null);
  }

  /** The client-side guard fired: the server did not end the watch at its timeout. */
  synchronized void expire() {
    if (!done) {
      expired = true;
      finish(null);
    }
  }

  /** The initial events of a streaming list did not end in time. */
  synchronized void expireInitialEvents() {
    if (!done && initial) {
      unsupported = true;
      finish(null);
    }
  }

  /** Blocks until the session ends; returns early when the thread is interrupted. */
  void awaitEnd() {
    try {
      ended.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException("session future failed", e);
    }
  }

  synchronized @Nullable RuntimeException cause() {
    return cause;
  }

  synchronized boolean synced() {
    return synced;
  }

  synchronized boolean unsupported() {
    return unsupported;
  }

  synchronized boolean expired() {
    return expired;
  }

  synchronized long events() {
    return events;
  }
}
