package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link DeltaFifo} in step with the API server through a {@link ListerWatcher}, on a
 * thread of its own (client-go's Reflector).
 *
 * <p>It lists (paginated; resourceVersion "0" first, then the last synced version, "" for a quorum
 * read once that version is unavailable), replaces the FIFO's content, then watches from the list's
 * version with bookmarks and a random timeout in [5, 10) min. A watch that ends normally is
 * re-opened at once from the last version seen; a broken watch, 429 or 5xx is re-opened after a
 * backoff; 410 Gone and other refusals lead to a relist after a backoff. An expired continue token
 * or a too-large version leads to an immediate quorum relist. With a streaming list enabled, the
 * initial state comes from a watch with sendInitialEvents, falling back to a plain list when the
 * server does not support it.
 */
final class Reflector<T extends HasMetadata> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);
  private static final Duration WATCH_GRACE = Duration.ofSeconds(30);
  private static final Duration SHORT_WATCH = Duration.ofSeconds(1);

  /** What to do after a list or a watch ended. */
  private enum Next {
    WATCH_NOW,
    WATCH_AFTER_BACKOFF,
    LIST_NOW,
    LIST_AFTER_BACKOFF,
    STOP
  }

  /** A consistent view of the reflector's state, for health. */
  record Status(
      boolean watching,
      Instant lastEventTime,
      String lastSyncResourceVersion,
      long relistCount,
      String lastError) {}

  private final String name;
  private final ListerWatcher<T> listerWatcher;
  private final DeltaFifo<T> fifo;
  private final UnaryOperator<T> transform;
  private final Clock clock;
  private final ReflectorConfig config;
  private final Backoff backoff;

  private final Object lock = new Object();
  // All guarded by lock.
  private Thread thread;
  private boolean closed;
  private boolean watching;
  private Instant lastEventTime;
  // "" until the first list; the version of the last list, event or bookmark afterwards.
  private String lastSyncResourceVersion = "";
  // Set when the server said that version is gone or too large: the next list is a quorum read.
  private boolean lastSyncUnavailable;
  private long lists;
  private String lastError;
  private boolean streamingDisabled;
  private WatchSession<T> session;
  private CompletableFuture<Void> sleeping;

  Reflector(
      String name,
      ListerWatcher<T> listerWatcher,
      DeltaFifo<T> fifo,
      UnaryOperator<T> transform,
      Clock clock,
      ReflectorConfig config) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.fifo = Objects.requireNonNull(fifo, "fifo");
    this.transform = Objects.requireNonNull(transform, "transform");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.config = Objects.requireNonNull(config, "config");
    this.backoff =
        new Backoff(
            clock,
            config.initialBackoff(),
            config.maxBackoff(),
            config.backoffReset(),
            config.jitter(),
            config.random());
    this.streamingDisabled = !config.streamingList();
  }

  /** Starts the reflector's thread; a no-op if already started or closed. */
  void start() {
    synchronized (lock) {
      if (thread != null || closed) {
        return;
      }
      thread = new Thread(this::run, "reflector-" + name);
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Stops the thread and the watch; idempotent. */
  @Override
  public void close() {
    WatchSession<T> current;
    CompletableFuture<Void> sleep;
    Thread t;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      watching = false;
      current = session;
      sleep = sleeping;
      t = thread;
    }
    if (current != null) {
      current.finish(null);
    }
    if (sleep != null) {
      sleep.complete(null);
    }
    if (t != null && t != Thread.currentThread()) {
      t.interrupt();
    }
  }

  Status status() {
    synchronized (lock) {
      return new Status(
          watching, lastEventTime, lastSyncResourceVersion, Math.max(0, lists - 1), lastError);
    }
  }

  String lastSyncResourceVersion() {
    synchronized (lock) {
      return lastSyncResourceVersion;
    }
  }

  private void run() {
    Next next = Next.LIST_NOW;
    while (next != Next.STOP && !isClosed()) {
      try {
        next =
            switch (next) {
              case LIST_NOW -> listAndWatch();
              case WATCH_NOW -> watch();
              case WATCH_AFTER_BACKOFF -> sleep(backoff.next()) ? watch() : Next.STOP;
              case LIST_AFTER_BACKOFF -> sleep(backoff.next()) ? listAndWatch() : Next.STOP;
              case STOP -> Next.STOP;
            };
      } catch (RuntimeException e) {
        // A bug in a collaborator (transform, FIFO): report it and start over from a list.
        recordError("unexpected failure", e);
        next = Next.LIST_AFTER_BACKOFF;
      }
    }
    log.debug("Reflector {} stopped", name);
  }

  private Next listAndWatch() {
    if (!isStreamingDisabled()) {
      return streamingList();
    }
    Next afterList = list();
    return afterList == Next.WATCH_NOW ? watch() : afterList;
  }

  private Next list() {
    String resourceVersion = relistResourceVersion();
    List<T> items = new ArrayList<>();
    String listVersion;
    String continueToken = null;
    try {
      do {
        ListPage<T> page =
            listerWatcher.list(
                new ListRequest(
                    continueToken == null ? resourceVersion : "",
                    config.pageSize(),
                    continueToken));
        for (T item : page.items()) {
          items.add(transform.apply(item));
        }
        listVersion = page.resourceVersion();
        continueToken = page.hasMore() ? page.continueToken() : null;
      } while (continueToken != null && !isClosed());
    } catch (RuntimeException e) {
      if (isClosed()) {
        return Next.STOP;
      }
      recordError("list of " + listerWatcher.description() + " failed", e);
      if ((ApiErrors.isGone(e) || ApiErrors.isTooLargeResourceVersion(e))
          && !resourceVersion.isEmpty()) {
        synchronized (lock) {
          lastSyncUnavailable = true;
        }
        return Next.LIST_NOW;
      }
      return Next.LIST_AFTER_BACKOFF;
    }
    if (isClosed()) {
      return Next.STOP;
    }
    fifo.replace(items, listVersion);
    synced(listVersion);
    log.debug("Reflector {} listed {} objects at {}", name, items.size(), listVersion);
    return Next.WATCH_NOW;
  }

  private Next streamingList() {
    String resourceVersion;
    synchronized (lock) {
      resourceVersion = lastSyncUnavailable ? "" : lastSyncResourceVersion;
    }
    WatchSession<T> s = new WatchSession<>(this, true);
    Next next = runSession(s, new WatchRequest(resourceVersion, watchTimeout(), true, true));
    if (s.synced() || next == Next.STOP) {
      return next;
    }
    RuntimeException cause = s.cause();
    if (cause == null || s.unsupported() || ApiErrors.isStreamingUnsupported(cause)) {
      log.info("Reflector {}: streaming list not supported, using plain lists", name);
      synchronized (lock) {
        streamingDisabled = true;
      }
    }
    // Fall back to a plain list right away.
    Next afterList = list();
    return afterList == Next.WATCH_NOW ? watch() : afterList;
  }

  private Next watch() {
    String resourceVersion;
    synchronized (lock) {
      resourceVersion = lastSyncResourceVersion;
    }
    return runSession(
        new WatchSession<>(this, false),
        new WatchRequest(resourceVersion, watchTimeout(), true, false));
  }

  /** Opens a watch, waits for its end and decides what comes next. */
  private Next runSession(WatchSession<T> s, WatchRequest request) {
    long started = clock.nanoTime();
    WatchHandle handle;
    try {
      handle = listerWatcher.watch(request, s);
    } catch (RuntimeException e) {
      if (isClosed()) {
        return Next.STOP;
      }
      recordError("watch of " + listerWatcher.description() + " failed", e);
      s.finish(e);
      return afterWatchError(e);
    }
    boolean closedMeanwhile;
    synchronized (lock) {
      closedMeanwhile = closed;
      if (!closedMeanwhile) {
        session = s;
        watching = true;
        if (!request.sendInitialEvents()) {
          lastError = null;
        }
      }
    }
    if (closedMeanwhile) {
      // Outside the lock: a lister-watcher may take its own locks while closing.
      handle.close();
      return Next.STOP;
    }
    // The server ends the watch at its timeout; this guard ends it if the server does not.
    Clock.Cancellable timer = clock.schedule(request.timeout().plus(WATCH_GRACE), s::expire);
    Clock.Cancellable initialTimer =
        request.sendInitialEvents()
            ? clock.schedule(config.streamingListTimeout(), s::expireInitialEvents)
            : () -> {};
    try {
      s.awaitEnd();
    } finally {
      timer.cancel();
      initialTimer.cancel();
      handle.close();
    }
    if (isClosed()) {
      endSession(null);
      return Next.STOP;
    }
    RuntimeException cause = s.cause();
    String what = "watch of " + listerWatcher.description();
    if (request.sendInitialEvents() && !s.synced()) {
      endSession(
          cause == null ? null : error("streaming list of " + listerWatcher.description(), cause));
      return Next.LIST_NOW;
    }
    if (cause == null) {
      Duration lasted = Duration.ofNanos(clock.nanoTime() - started);
      if (s.events() == 0 && lasted.compareTo(SHORT_WATCH) < 0 && !s.expired()) {
        endSession(error(what + " ended after " + lasted.toMillis() + " ms without events", null));
        return Next.WATCH_AFTER_BACKOFF;
      }
      endSession(null);
      return Next.WATCH_NOW;
    }
    endSession(error(what + " ended", cause));
    return afterWatchError(cause);
  }

  /** Publishes the end of a watch and its error (if any) to health in one step. */
  private void endSession(String errorMessage) {
    synchronized (lock) {
      session = null;
      watching = false;
      if (errorMessage != null) {
        lastError = errorMessage;
      }
    }
  }

  private static Next afterWatchError(RuntimeException e) {
    if (ApiErrors.isGone(e)) {
      return Next.LIST_AFTER_BACKOFF;
    }
    return ApiErrors.isRetriableWatchError(e) ? Next.WATCH_AFTER_BACKOFF : Next.LIST_AFTER_BACKOFF;
  }

  // --- called by WatchSession on the watch's thread ---

  T transform(T obj) {
    return transform.apply(obj);
  }

  DeltaFifo<T> fifo() {
    return fifo;
  }

  /** A list (plain or streaming) completed at {@code resourceVersion}. */
  void synced(String resourceVersion) {
    synchronized (lock) {
      lastSyncResourceVersion = resourceVersion == null ? "" : resourceVersion;
      lastSyncUnavailable = false;
      lists++;
      lastError = null;
      lastEventTime = clock.instant();
    }
  }

  /** A watch event or bookmark moved the version forward. */
  void observed(String resourceVersion) {
    synchronized (lock) {
      if (resourceVersion != null && !resourceVersion.isEmpty()) {
        lastSyncResourceVersion = resourceVersion;
      }
      lastEventTime = clock.instant();
    }
  }

  Clock clock() {
    return clock;
  }

  // --- helpers ---

  private String relistResourceVersion() {
    synchronized (lock) {
      if (lastSyncUnavailable) {
        return "";
      }
      return lastSyncResourceVersion.isEmpty() ? "0" : lastSyncResourceVersion;
    }
  }

  private Duration watchTimeout() {
    double r = config.random().getAsDouble();
    long seconds = (long) (config.minWatchTimeout().toSeconds() * (1.0 + r));
    return Duration.ofSeconds(Math.max(1, seconds));
  }

  private boolean isStreamingDisabled() {
    synchronized (lock) {
      return streamingDisabled;
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  private void recordError(String what, RuntimeException e) {
    String message = error(what, e);
    synchronized (lock) {
      lastError = message;
      watching = false;
    }
  }

  /** Logs a failure once, here where it is handled, and returns its one-line description. */
  private String error(String what, RuntimeException e) {
    String message = e == null ? what : what + ": " + ApiErrors.describe(e);
    log.warn("Reflector {}: {}", name, message);
    return message;
  }

  /** Waits {@code delay} on the clock; false when closed meanwhile. */
  private boolean sleep(Duration delay) {
    CompletableFuture<Void> wake = new CompletableFuture<>();
    synchronized (lock) {
      if (closed) {
        return false;
      }
      sleeping = wake;
    }
    log.debug("Reflector {} backing off for {}", name, delay);
    Clock.Cancellable timer = clock.schedule(delay, () -> wake.complete(null));
    try {
      wake.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException("sleep future failed", e);
    } finally {
      timer.cancel();
      synchronized (lock) {
        sleeping = null;
      }
    }
    return !isClosed();
  }
}
