package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.informer.InformerMetrics.RestartReason;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchHandle;
import io.podset.runtime.informer.transport.WatchRequest;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link DeltaFifo} in step with the API server through a {@link ListerWatcher}, on a
 * thread of its own (client-go's Reflector).
 *
 * <p>It lists (paginated; resourceVersion "0" first, then the last synced version, "" for a quorum
 * read once that version is unavailable), replaces the FIFO's content, then watches from the list's
 * version with bookmarks and a random timeout in [5, 10) min. A watch that ends normally is
 * re-opened at once from the last version seen; a broken watch, 429 or 5xx is re-opened from the
 * last version after a backoff (the cache stays valid: no relist); 410 Gone leads to a relist,
 * other refusals to a relist after a backoff. An expired continue token or a too-large version
 * leads to an immediate quorum relist (also when the list was a quorum list already: client-go
 * backs off first). With a streaming list enabled, the initial state comes from a watch with
 * sendInitialEvents, falling back to a plain list when the server does not support it.
 *
 * <p>Where it deliberately differs from client-go, to recover in seconds rather than in minutes
 * under recurring faults:
 *
 * <ul>
 *   <li>The backoff starts over once a list completed, a re-opened watch delivered its first event
 *       or bookmark, or a watch stayed open for a second ({@link Backoff#reset()}), not only after
 *       two minutes without failures: client-go's rule makes every retry under recurring faults
 *       wait the cap (30 s plus jitter). Watches that end at once without events still back off
 *       doubling.
 *   <li>A failure carrying the server's Retry-After ({@code details.retryAfterSeconds}) is retried
 *       after that long instead of the exponential delay.
 *   <li>A list page that fails with a broken connection, 429 or 5xx is asked again from its
 *       continue token after the backoff (up to {@value #PAGE_ATTEMPTS} times), keeping the pages
 *       already read; client-go starts the list over, which on a large collection under recurring
 *       faults can fail again and again.
 *   <li>410 Gone on a watch relists without a backoff (client-go waits its backoff first: the
 *       version is gone either way). Relists instead are bounded per informer by a {@link
 *       RelistLimiter} (a burst, then one per interval: ten times what the last list took, between
 *       1 and 5 s by default), so the faster recovery cannot turn into a list storm; re-watches,
 *       which cost the server little, are not limited.
 *   <li>What resumes where it stopped waits at most {@code maxResumeBackoff} (2 s, plus jitter)
 *       however often the attempts before it failed: a watch re-opened from the last version, a
 *       failed list page asked again from its continue token. While it waits the cache falls behind
 *       by the whole wait, and a resumption is one request (a re-watch is served from the watch
 *       cache, a page is one page): with client-go's 30 s cap (45 s with jitter) a handful of
 *       attempts that each met a passing fault kept the chaos soak's PodSet cache almost four
 *       minutes behind, and the page retries of one relist its pod cache 100 s; with a 5-s cap,
 *       nine re-watches in a row that each met a passing fault (a 5xx, a watch dropped on opening)
 *       still kept it 36 s behind. An overloaded kube-apiserver answers 429 with a Retry-After,
 *       which is honoured instead.
 *   <li>A whole list that failed the same way (a broken connection, 429 or 5xx, its page retries
 *       spent) is started over after at most {@code maxResumeBackoff} too: the relist limiter
 *       already paces lists (one per interval after its burst), which a longer wait would only
 *       leave the cache behind for. A list refused otherwise (403, 404) keeps the full sequence (up
 *       to 30 s): retrying soon does not help it.
 * </ul>
 */
final class Reflector<T extends HasMetadata> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);
  private static final Duration WATCH_GRACE = Duration.ofSeconds(30);

  /** How often one page of a list is asked for before the whole list fails. */
  static final int PAGE_ATTEMPTS = 4;

  private final String name;
  private final ListerWatcher<T> listerWatcher;
  private final DeltaFifo<T> fifo;
  private final UnaryOperator<T> transform;
  private final Clock clock;
  private final ReflectorConfig config;
  private final InformerMetrics metrics;
  private final Backoff backoff;
  private final PagedList<T> pagedList;
  private final ReflectorState state;
  private final BackoffSleep backoffSleep;
  private final RelistLimiter relists;
  // When the current list (plain or streaming) started: what it took paces the next relists.
  private volatile long listStartedNanos;

  // Confined to the reflector's thread: streaming lists given up; the Retry-After of the last
  // failure (null when it had none), used by the next backoff.
  private boolean streamingDisabled;
  private @Nullable Duration retryAfter;

  // Taken before the state's own lock where both are held.
  private final Object lock = new Object();
  // All guarded by lock: the thread, whether closed, and the watch close() must end.
  private @Nullable Thread thread;
  private boolean closed;
  private @Nullable WatchSession<T> session;

  Reflector(
      String name,
      ListerWatcher<T> listerWatcher,
      DeltaFifo<T> fifo,
      UnaryOperator<T> transform,
      Clock clock,
      ReflectorConfig config,
      InformerMetrics metrics) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.fifo = Objects.requireNonNull(fifo, "fifo");
    this.transform = Objects.requireNonNull(transform, "transform");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.backoff =
        new Backoff(
            clock,
            config.initialBackoff(),
            config.maxBackoff(),
            config.backoffReset(),
            config.jitter(),
            config.random());
    this.pagedList = new PagedList<>(listerWatcher, transform, config.pageSize());
    this.state = new ReflectorState(clock);
    this.backoffSleep = new BackoffSleep(clock);
    this.relists = new RelistLimiter(clock, config.relistBurst(), config.relistInterval());
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
    Thread t;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      state.watchEnded(null);
      current = session;
      t = thread;
    }
    if (current != null) {
      current.finish(null);
    }
    backoffSleep.close();
    if (t != null && t != Thread.currentThread()) {
      t.interrupt();
    }
  }

  ReflectorState.Status status() {
    return state.status();
  }

  @Nullable String lastSyncResourceVersion() {
    return state.lastSyncResourceVersion();
  }

  /** See {@link CacheVersion#faultedWithin}. */
  boolean faultedWithin(Duration window) {
    return state.faultedWithin(window.toNanos());
  }

  private void run() {
    ReflectorStep next = ReflectorStep.LIST_NOW;
    while (next != ReflectorStep.STOP && !isClosed()) {
      try {
        next =
            switch (next) {
              case LIST_NOW -> relist();
              case WATCH_NOW -> watch();
              case WATCH_AFTER_BACKOFF ->
                  sleep(nextBackoff(config.maxResumeBackoff())) ? watch() : ReflectorStep.STOP;
              case LIST_AFTER_SHORT_BACKOFF ->
                  sleep(nextBackoff(config.maxResumeBackoff())) ? relist() : ReflectorStep.STOP;
              case LIST_AFTER_BACKOFF -> sleep(nextBackoff()) ? relist() : ReflectorStep.STOP;
              case STOP -> ReflectorStep.STOP;
            };
      } catch (RuntimeException e) {
        // A bug in a collaborator (transform, FIFO): report it and start over from a list.
        recordError("unexpected failure", e);
        next = ReflectorStep.LIST_AFTER_BACKOFF;
      }
    }
    log.debug("Reflector {} stopped", name);
  }

  /** Lists (once the relist limiter allows it), then watches. */
  private ReflectorStep relist() {
    Duration wait = relists.reserve();
    if (!wait.isZero()) {
      log.debug("Reflector {} waits {} for its relist budget", name, wait);
      if (!sleep(wait)) {
        return ReflectorStep.STOP;
      }
    }
    return listAndWatch();
  }

  /** The wait before the next attempt: the server's Retry-After if the failure had one. */
  private Duration nextBackoff() {
    return nextBackoff(config.maxBackoff());
  }

  /** As {@link #nextBackoff()}, the exponential delay capped at {@code cap}. */
  private Duration nextBackoff(Duration cap) {
    Duration delay = backoff.next(retryAfter, cap);
    retryAfter = null;
    return delay;
  }

  private ReflectorStep listAndWatch() {
    listStartedNanos = clock.nanoTime();
    if (!streamingDisabled) {
      return streamingList();
    }
    ReflectorStep afterList = list();
    return afterList == ReflectorStep.WATCH_NOW ? watch() : afterList;
  }

  private ReflectorStep list() {
    String resourceVersion = state.listResourceVersion();
    PagedList.Result<T> listed;
    try {
      listed = pagedList.read(resourceVersion, this::isClosed, this::retryPage);
    } catch (RuntimeException e) {
      if (isClosed()) {
        return ReflectorStep.STOP;
      }
      recordError("list of " + listerWatcher.description() + " failed", e);
      retryAfter = ApiErrors.retryAfter(e);
      if (ReflectorStep.needsQuorumRelist(e, resourceVersion)) {
        state.lastSyncUnavailable();
        return ReflectorStep.LIST_NOW;
      }
      if (ApiErrors.isGone(e)) {
        // A quorum list whose continue token expired (the server compacted while it was read): a
        // new list reads a new snapshot, and the relist limiter paces it; a backoff (up to 30 s)
        // would only leave the cache behind.
        return ReflectorStep.LIST_NOW;
      }
      return ReflectorStep.afterListFailure(e);
    }
    if (listed == null || isClosed()) {
      return ReflectorStep.STOP;
    }
    fifo.replace(listed.items(), listed.resourceVersion());
    synced(listed.resourceVersion());
    log.debug(
        "Reflector {} listed {} objects at {}",
        name,
        listed.items().size(),
        listed.resourceVersion());
    return ReflectorStep.WATCH_NOW;
  }

  /**
   * A page failed: asked again (after the backoff, or the server's Retry-After) while the failure
   * is a broken connection, 429 or 5xx other than a too-large resourceVersion, at most {@value
   * #PAGE_ATTEMPTS} times per page.
   */
  private boolean retryPage(RuntimeException e, int attempt) {
    if (isClosed()
        || attempt >= PAGE_ATTEMPTS
        || !ApiErrors.isRetriableWatchError(e)
        || ApiErrors.isTooLargeResourceVersion(e)) {
      return false;
    }
    recordError("list page of " + listerWatcher.description() + " failed", e);
    retryAfter = ApiErrors.retryAfter(e);
    return sleep(nextBackoff(config.maxResumeBackoff()));
  }

  private ReflectorStep streamingList() {
    String resourceVersion = state.streamResourceVersion();
    WatchSession<T> s = new WatchSession<>(this, true);
    ReflectorStep next =
        runSession(s, new WatchRequest(resourceVersion, config.watchTimeout(), true, true));
    if (s.synced() || next == ReflectorStep.STOP) {
      return next;
    }
    RuntimeException cause = s.cause();
    if (cause == null || s.unsupported() || ApiErrors.isStreamingUnsupported(cause)) {
      log.info("Reflector {}: streaming list not supported, using plain lists", name);
      streamingDisabled = true;
    }
    // Fall back to a plain list right away.
    ReflectorStep afterList = list();
    return afterList == ReflectorStep.WATCH_NOW ? watch() : afterList;
  }

  private ReflectorStep watch() {
    String resourceVersion = state.watchResourceVersion();
    return runSession(
        new WatchSession<>(this, false),
        new WatchRequest(resourceVersion, config.watchTimeout(), true, false));
  }

  /** Opens a watch, waits for its end and decides what comes next. */
  private ReflectorStep runSession(WatchSession<T> s, WatchRequest request) {
    long started = clock.nanoTime();
    WatchHandle handle;
    try {
      handle = listerWatcher.watch(request, s);
    } catch (RuntimeException e) {
      if (isClosed()) {
        return ReflectorStep.STOP;
      }
      recordError("watch of " + listerWatcher.description() + " failed", e);
      retryAfter = ApiErrors.retryAfter(e);
      s.finish(e);
      metrics.watchRestarted(RestartReason.of(e));
      return ReflectorStep.afterWatchFailure(e);
    }
    boolean closedMeanwhile;
    synchronized (lock) {
      closedMeanwhile = closed;
      if (!closedMeanwhile) {
        session = s;
        state.watchOpened(!request.sendInitialEvents());
      }
    }
    if (closedMeanwhile) {
      // Outside the lock: a lister-watcher may take its own locks while closing.
      handle.close();
      return ReflectorStep.STOP;
    }
    metrics.watchOpened();
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
      return ReflectorStep.STOP;
    }
    Duration lasted = Duration.ofNanos(clock.nanoTime() - started);
    if (lasted.compareTo(ReflectorStep.SHORT_WATCH) >= 0) {
      // The server kept the watch open (its events may have been held back): the attempts
      // before it are no failing streak.
      backoff.reset();
    }
    RuntimeException cause = s.cause();
    String what = "watch of " + listerWatcher.description();
    if (request.sendInitialEvents() && !s.synced()) {
      if (cause != null) {
        metrics.watchRestarted(RestartReason.of(cause));
      }
      endSession(
          cause == null ? null : error("streaming list of " + listerWatcher.description(), cause));
      return ReflectorStep.LIST_NOW;
    }
    if (cause == null) {
      if (ReflectorStep.endedTooSoon(s.events(), lasted, s.expired())) {
        endSession(error(what + " ended after " + lasted.toMillis() + " ms without events", null));
        metrics.watchRestarted(RestartReason.SHORT);
        return ReflectorStep.WATCH_AFTER_BACKOFF;
      }
      endSession(null);
      metrics.watchRestarted(RestartReason.ENDED);
      return ReflectorStep.WATCH_NOW;
    }
    endSession(error(what + " ended", cause));
    retryAfter = ApiErrors.retryAfter(cause);
    metrics.watchRestarted(RestartReason.of(cause));
    return ReflectorStep.afterWatchFailure(cause);
  }

  /** Publishes the end of a watch and its error (if any) to health in one step. */
  private void endSession(@Nullable String errorMessage) {
    synchronized (lock) {
      session = null;
      state.watchEnded(errorMessage);
    }
  }

  // --- called by WatchSession on the watch's thread ---

  T transform(T obj) {
    return transform.apply(obj);
  }

  DeltaFifo<T> fifo() {
    return fifo;
  }

  /** A list (plain or streaming) completed at {@code resourceVersion}. */
  void synced(@Nullable String resourceVersion) {
    metrics.listed(state.synced(resourceVersion));
    backoff.reset();
    relists.listTook(Duration.ofNanos(clock.nanoTime() - listStartedNanos));
  }

  /** A watch delivered its first event or bookmark: the server serves it again. */
  void watchConfirmed() {
    backoff.reset();
  }

  /** A watch event arrived (before it is applied). */
  void received(WatchEvent<T> event) {
    metrics.received(event);
  }

  /** A watch event or bookmark moved the version forward. */
  void observed(String resourceVersion) {
    state.observed(resourceVersion);
  }

  // --- helpers ---

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  private void recordError(String what, RuntimeException e) {
    state.watchEnded(error(what, e));
  }

  /** Logs a failure once, here where it is handled, and returns its one-line description. */
  private String error(String what, @Nullable RuntimeException e) {
    String message = e == null ? what : what + ": " + ApiFailures.describe(e);
    log.warn("Reflector {}: {}", name, message);
    return message;
  }

  /** Waits {@code delay} on the clock; false when closed meanwhile. */
  private boolean sleep(Duration delay) {
    log.debug("Reflector {} backing off for {}", name, delay);
    return backoffSleep.sleep(delay) && !isClosed();
  }
}
