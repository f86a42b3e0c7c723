package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.event.Event;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler of a shared informer: an unbounded buffer of events and the thread that delivers
 * them, so that a slow or failing handler never holds up the informer or other handlers; or,
 * inline, no buffer and no thread: {@link #enqueue} delivers at once on the caller's thread (the
 * informer calls it under its handlers lock, which keeps deliveries one at a time and in order).
 */
final class HandlerListener<T extends HasMetadata> implements HandlerRegistration {

  private static final Logger log = LoggerFactory.getLogger(HandlerListener.class);

  private final ResourceEventHandler<T> handler;
  private final Duration resyncPeriod;
  private final Consumer<HandlerListener<T>> onClose;
  // Null for an inline listener.
  private final @Nullable Thread thread;

  private final Object lock = new Object();
  // All guarded by lock. Invariant: delivered <= enqueued; buffer.size() <= enqueued - delivered.
  private final ArrayDeque<Event<T>> buffer = new ArrayDeque<>();
  private long enqueued;
  private long delivered;
  // -1 until the informer synced; then the count of events that make up the initial state.
  private long syncTarget = -1;
  // Completed (asynchronously) once delivered >= syncTarget >= 0.
  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  private boolean stopped;
  // Owned by the informer (guarded by its handlers lock): when this handler's next resync is due.
  private long nextResyncNanos;

  @SuppressWarnings("unchecked") // see the comment below
  HandlerListener(
      String name,
      ResourceEventHandler<? super T> handler,
      Duration resyncPeriod,
      boolean inline,
      Consumer<HandlerListener<T>> onClose) {
    // A handler of a supertype S of T takes our Event<T> as an Event<S>: an event is immutable and
    // only hands its objects out, so the widening cannot put a non-T anywhere.
    this.handler = (ResourceEventHandler<T>) Objects.requireNonNull(handler, "handler");
    this.resyncPeriod = Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    if (inline) {
      this.thread = null;
    } else {
      this.thread = new Thread(this::run, name);
      thread.setDaemon(true);
    }
  }

  void start() {
    if (thread != null) {
      thread.start();
    }
  }

  Duration resyncPeriod() {
    return resyncPeriod;
  }

  long nextResyncNanos() {
    return nextResyncNanos;
  }

  void nextResyncNanos(long value) {
    nextResyncNanos = value;
  }

  void enqueue(Event<T> event) {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      enqueued++;
      if (thread != null) {
        buffer.add(event);
        lock.notifyAll();
        return;
      }
    }
    deliver(event);
    delivered();
  }

  /** The informer synced: the handler is synced once it got everything enqueued so far. */
  void markSynced() {
    boolean now;
    synchronized (lock) {
      if (syncTarget >= 0) {
        return;
      }
      syncTarget = enqueued;
      now = delivered >= syncTarget;
    }
    if (now) {
      synced.completeAsync(() -> null);
    }
  }

  @Override
  public boolean hasSynced() {
    synchronized (lock) {
      return syncTarget >= 0 && delivered >= syncTarget;
    }
  }

  @Override
  public CompletableFuture<Void> synced() {
    return synced;
  }

  @Override
  public void close() {
    if (stop()) {
      onClose.accept(this);
    }
  }

  /** Stops the thread; returns whether this call stopped it. */
  boolean stop() {
    synchronized (lock) {
      if (stopped) {
        return false;
      }
      stopped = true;
      buffer.clear();
      lock.notifyAll();
    }
    if (thread != null && thread != Thread.currentThread()) {
      thread.interrupt();
    }
    return true;
  }

  private void run() {
    while (true) {
      Event<T> next;
      synchronized (lock) {
        while (buffer.isEmpty() && !stopped) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            if (stopped) {
              return;
            }
          }
        }
        if (stopped) {
          return;
        }
        next = buffer.poll();
      }
      deliver(next);
      delivered();
    }
  }

  /** Counts a delivered event; completes {@link #synced} if it was the last initial one. */
  private void delivered() {
    boolean reachedSync;
    synchronized (lock) {
      delivered++;
      reachedSync = delivered == syncTarget;
    }
    if (reachedSync) {
      synced.completeAsync(() -> null);
    }
  }

  private void deliver(Event<T> event) {
    try {
      handler.onEvent(event);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      // Isolation: a failing handler must not stop its own deliveries, let alone others'.
      log.error("Event handler {} failed on {}", handler, event.kind(), e);
    }
  }
}
