package io.podset.operator.reliability;

import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Random faults against the operator's requests, from a seeded {@link Random}: every few hundred
 * milliseconds one fault of a random {@link Kind} starts, rule-based ones for one to four seconds.
 * Every rule is scoped to the operator's user agent, so the test's driver and observer are never
 * hit; the slow handler is the operator's own ({@link SlowHandlerFault}). Counts what was injected,
 * by kind.
 *
 * <p>{@link #start()} runs it on its own thread; {@link #stop()} ends it and removes every rule
 * (held-back events are released).
 */
final class FaultCampaign {

  /** The kinds of fault injected. */
  enum Kind {
    /** Open watches end (connection loss); the informers resume from their last version. */
    WATCH_DROP,
    /** New watch requests end at once. */
    WATCH_DROP_ON_OPEN,
    /** A resuming watch gets 410 Gone: the informer relists. */
    GONE_ON_RESUME,
    /** The history is compacted and watches dropped: resumes and continued lists get 410. */
    COMPACTION,
    /** 409 Conflict on updates and patches. */
    CONFLICT,
    /** 429 with Retry-After on writes and lists. */
    TOO_MANY_REQUESTS,
    /** 500 or 503 on any request. */
    SERVER_ERROR,
    /** 200 ms to 1.5 s of latency on any request. */
    LATENCY,
    /** Watch events of pods or PodSets held back, then released in order. */
    HELD_EVENTS,
    /** Watch events of pods or PodSets delayed by 0.2 to 1 s. */
    DELAYED_EVENTS,
    /**
     * The operator's event handlers block for 0.1 to 1 s on 20 to 50% of the events (counted: the
     * events blocked on).
     */
    SLOW_HANDLER,
    /**
     * Connections broken halfway through 20% of the answers to reads (get, list) and in the middle
     * of the next event of new watches. Not on writes: a write whose answer is lost is done while
     * its client saw a failure, an outcome the operator does not resolve yet (see issue 24's note).
     */
    CUT_RESPONSE
  }

  /** The kinds the campaign on the fake draws from (as before {@link Kind#CUT_RESPONSE}). */
  static final List<Kind> FAKE_KINDS =
      List.of(Kind.values()).subList(0, Kind.SLOW_HANDLER.ordinal() + 1);

  /** Every kind. */
  static final List<Kind> ALL_KINDS = List.of(Kind.values());

  private final FaultInjector faults;
  private final Runnable compaction;
  private final List<Kind> kinds;
  private final Random random;
  private final String userAgent;
  private final Duration meanInterval;
  private final SlowHandlerFault slowHandler;
  private final Object lock = new Object();
  // Guarded by lock: faults injected per kind, by removed rules and watch drops.
  private final Map<Kind, Long> counts = new EnumMap<>(Kind.class);
  // Guarded by lock: rules in place with their kind and removal time (nanos).
  private final List<Active> active = new ArrayList<>();
  // Guarded by lock.
  private boolean stopped;
  private Thread thread;

  private record Active(Kind kind, FaultInjector.Handle handle, long untilNanos) {}

  /**
   * @param faults where rules go (the fake server's, or a fault proxy's)
   * @param compaction forgets the server's history; null where it cannot be (a real server behind a
   *     proxy): {@link Kind#COMPACTION} then answers the next one to three watches 410, as a
   *     compaction would the resuming ones, and drops the open watches
   * @param kinds the kinds drawn from
   * @param userAgent the user agent text the faults are scoped to
   * @param meanInterval the mean time between two fault starts
   * @param slowHandler installed in the operator's controller
   */
  FaultCampaign(
      FaultInjector faults,
      Runnable compaction,
      List<Kind> kinds,
      long seed,
      String userAgent,
      Duration meanInterval,
      SlowHandlerFault slowHandler) {
    this.faults = faults;
    this.compaction = compaction;
    this.kinds = List.copyOf(kinds);
    this.random = new Random(seed);
    this.userAgent = userAgent;
    this.meanInterval = meanInterval;
    this.slowHandler = slowHandler;
    for (Kind kind : Kind.values()) {
      counts.put(kind, 0L);
    }
  }

  /** Starts injecting on a daemon thread. */
  void start() {
    thread = new Thread(this::run, "fault-campaign");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (true) {
      synchronized (lock) {
        if (stopped) {
          return;
        }
        expire(System.nanoTime());
        injectOne();
      }
      long pause = (long) (meanInterval.toNanos() * (0.5 + random.nextDouble()));
      LockSupport.parkNanos(pause);
    }
  }

  /** Holds the lock. */
  private void injectOne() {
    Kind kind = kinds.get(random.nextInt(kinds.size()));
    String watched = random.nextBoolean() ? "pods" : "podsets";
    switch (kind) {
      case WATCH_DROP ->
          add(kind, faults.dropWatches(random.nextBoolean() ? watched : null, userAgent));
      case WATCH_DROP_ON_OPEN ->
          rule(kind, match().verbs("watch").times(1 + random.nextInt(3)), Fault.dropWatch());
      case GONE_ON_RESUME -> {
        rule(kind, match().verbs("watch").resource(watched).times(1), Fault.gone());
        faults.dropWatches(watched, userAgent);
      }
      case COMPACTION -> {
        if (compaction != null) {
          compaction.run();
          add(kind, 1);
        } else {
          rule(kind, match().verbs("watch").times(1 + random.nextInt(3)), Fault.gone());
        }
        faults.dropWatches(null, userAgent);
      }
      case CONFLICT ->
          rule(kind, match().verbs("update", "patch").probability(0.3), Fault.conflict());
      case TOO_MANY_REQUESTS ->
          rule(
              kind,
              match().verbs("create", "delete", "patch", "update", "list").probability(0.3),
              Fault.tooManyRequests(Duration.ofSeconds(1)));
      case SERVER_ERROR ->
          rule(kind, match().probability(0.2), Fault.serverError(random.nextBoolean() ? 500 : 503));
      case LATENCY ->
          rule(
              kind,
              match().probability(0.3),
              Fault.latency(Duration.ofMillis(200 + random.nextInt(1300))));
      case HELD_EVENTS -> rule(kind, match().resource(watched), Fault.holdEvents());
      case DELAYED_EVENTS ->
          rule(
              kind,
              match().resource(watched),
              Fault.delayEvents(Duration.ofMillis(200 + random.nextInt(800))));
      case SLOW_HANDLER ->
          slowHandler.slowDown(
              Duration.ofMillis(1000 + random.nextInt(3000)),
              0.2 + 0.3 * random.nextDouble(),
              Duration.ofMillis(100 + random.nextInt(900)));
      case CUT_RESPONSE ->
          rule(kind, match().verbs("get", "list", "watch").probability(0.2), Fault.cutResponse());
    }
  }

  private FaultRule.Builder match() {
    return FaultRule.match().userAgentContaining(userAgent).seed(random.nextLong());
  }

  /** Holds the lock. */
  private void rule(Kind kind, FaultRule.Builder match, Fault fault) {
    FaultInjector.Handle handle = faults.add(match.inject(fault));
    long lifetime = Duration.ofMillis(1000 + random.nextInt(3000)).toNanos();
    active.add(new Active(kind, handle, System.nanoTime() + lifetime));
  }

  /** Holds the lock. */
  private void add(Kind kind, long n) {
    counts.merge(kind, n, Long::sum);
  }

  /** Removes the rules whose time is up. Holds the lock. */
  private void expire(long nowNanos) {
    active.removeIf(
        a -> {
          if (nowNanos - a.untilNanos() < 0) {
            return false;
          }
          a.handle().remove();
          add(a.kind(), a.handle().injected());
          return true;
        });
  }

  /** Stops injecting, removes every rule in place and releases the slow handler. */
  void stop() {
    slowHandler.stop();
    synchronized (lock) {
      stopped = true;
      for (Active a : active) {
        a.handle().remove();
        add(a.kind(), a.handle().injected());
      }
      active.clear();
    }
    if (thread != null) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The faults injected so far, by kind (rules still in place count once removed). */
  Map<Kind, Long> counts() {
    synchronized (lock) {
      Map<Kind, Long> all = new EnumMap<>(counts);
      all.put(Kind.SLOW_HANDLER, slowHandler.blocked());
      return all;
    }
  }

  /** The total of {@link #counts()}. */
  long total() {
    return counts().values().stream().mapToLong(Long::longValue).sum();
  }
}
