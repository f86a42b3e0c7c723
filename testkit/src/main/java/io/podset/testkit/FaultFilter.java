package io.podset.testkit;

import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.CutResponse;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.http.RequestInfo;
import io.podset.testkit.internal.http.RequestNotes;
import io.podset.testkit.internal.http.WatchResult;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.watch.WatchFrame;
import io.podset.testkit.internal.watch.WatchSink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link FaultInjector}: a request filter that applies request faults, and a wrapper around
 * every watch stream that applies event faults (hold back, delay) and can end or break the stream.
 * The same filter serves the {@link FakeApiServer} and the {@link FaultProxy}: what differs is how
 * a request is resolved to the {@link RequestInfo} the rules match on, and whether there is a
 * history to compact.
 */
final class FaultFilter implements RequestFilter, FaultInjector {

  private static final Logger LOG = LoggerFactory.getLogger(FaultFilter.class);

  private final Function<ApiRequest, RequestInfo> resolver;
  // Null when the server behind keeps no history this process can forget (a proxy).
  private final @Nullable Runnable compactor;
  private final Clock clock;
  // Newest first.
  private final List<Installed> rules = new CopyOnWriteArrayList<>();
  private final Set<ControlledSink> watches = new CopyOnWriteArraySet<>();
  private final AtomicLong injected = new AtomicLong();

  /**
   * @param resolver what a request addresses
   * @param compactor forgets the change history ({@link Fault#compactHistory()}); null if the
   *     server behind has none to forget, and such rules are refused
   */
  FaultFilter(
      Function<ApiRequest, RequestInfo> resolver, @Nullable Runnable compactor, Clock clock) {
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.compactor = compactor;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** One rule in place and its counters. */
  private final class Installed implements Handle {
    private final FaultRule rule;
    private final Object lock = new Object();
    // Guarded by lock: matching requests seen, faults injected, the probability draws.
    private long seen;
    private long fired;
    private final Random random;

    Installed(FaultRule rule) {
      this.rule = rule;
      this.random = new Random(rule.seed());
    }

    /** Whether the rule fires on this matching request; counts it when it does. */
    boolean fire() {
      synchronized (lock) {
        seen++;
        if (seen <= rule.skip() || fired >= rule.times()) {
          return false;
        }
        if (rule.probability() < 1 && random.nextDouble() >= rule.probability()) {
          return false;
        }
        fired++;
      }
      injected.incrementAndGet();
      return true;
    }

    void countEvent() {
      synchronized (lock) {
        fired++;
      }
      injected.incrementAndGet();
    }

    @Override
    public FaultRule rule() {
      return rule;
    }

    @Override
    public long injected() {
      synchronized (lock) {
        return fired;
      }
    }

    @Override
    public void remove() {
      if (rules.remove(this) && rule.fault().onEvents()) {
        watches.forEach(ControlledSink::release);
      }
    }

    @Override
    public String toString() {
      return rule.toString();
    }
  }

  @Override
  public Handle add(FaultRule rule) {
    Objects.requireNonNull(rule, "rule");
    if (compactor == null && rule.fault().kind() == Fault.Kind.COMPACT_HISTORY) {
      throw new IllegalArgumentException(
          "a compactHistory fault needs the fake API server's history; this server cannot forget"
              + " the history of the one behind it: "
              + rule);
    }
    Installed installed = new Installed(rule);
    rules.add(0, installed);
    LOG.debug("Fault rule added: {}", rule);
    return installed;
  }

  @Override
  public List<Handle> rules() {
    return List.copyOf(rules);
  }

  @Override
  public void clear() {
    for (Installed rule : List.copyOf(rules)) {
      rule.remove();
    }
  }

  @Override
  public long injected() {
    return injected.get();
  }

  @Override
  public int dropWatches(@Nullable String resource) {
    return dropWatches(resource, null);
  }

  @Override
  public int dropWatches(@Nullable String resource, @Nullable String userAgentContaining) {
    int dropped = 0;
    for (ControlledSink watch : watches) {
      if ((resource == null || resource.equals(watch.info.resource()))
          && (userAgentContaining == null
              || (watch.userAgent != null && watch.userAgent.contains(userAgentContaining)))) {
        watch.drop();
        dropped++;
      }
    }
    return dropped;
  }

  @Override
  public boolean mayBlock() {
    for (Installed rule : rules) {
      if (rule.rule.fault().kind() == Fault.Kind.LATENCY) {
        return true;
      }
    }
    return false;
  }

  @Override
  public ApiResult filter(ApiRequest request, Chain next) {
    if (rules.isEmpty()) {
      // No rule to match: only a watch needs what the request addresses (dropWatches selects
      // by resource), so other requests pass without being resolved.
      ApiResult result = next.proceed(request);
      return result instanceof WatchResult
          ? controlled(result, resolver.apply(request), request.header("user-agent"), End.NORMALLY)
          : result;
    }
    RequestInfo info = resolver.apply(request);
    boolean nonResource = info.resource() == null;
    for (Installed rule : rules) {
      Fault fault = rule.rule.fault();
      if ((nonResource && !rule.rule.appliesToNonResourcePaths())
          || fault.onEvents()
          || !rule.rule.matches(info, request.header("user-agent"), clock.instant())) {
        continue;
      }
      if (fault.kind() == Fault.Kind.DROP_WATCH && !info.verb().equals("watch")) {
        continue;
      }
      if (!rule.fire()) {
        continue;
      }
      RequestNotes.fault(fault.toString());
      switch (fault.kind()) {
        case STATUS -> {
          return respond(fault, info);
        }
        case LATENCY -> {
          sleep(fault.duration());
          continue;
        }
        case COMPACT_HISTORY -> {
          // add() refuses such rules without a compactor.
          Objects.requireNonNull(compactor, "compactor").run();
          continue;
        }
        case DROP_WATCH -> {
          return controlled(next.proceed(request), info, request.header("user-agent"), End.AT_ONCE);
        }
        case CUT_RESPONSE -> {
          ApiResult result = next.proceed(request);
          if (result instanceof ApiResponse response) {
            return CutResponse.half(response);
          }
          return controlled(result, info, request.header("user-agent"), End.CUT_NEXT_EVENT);
        }
        case HOLD_EVENTS, DELAY_EVENTS -> throw new IllegalStateException("event fault");
      }
    }
    return controlled(next.proceed(request), info, request.header("user-agent"), End.NORMALLY);
  }

  /** How a watch behind the rules ends, besides the client's or the server's end. */
  private enum End {
    NORMALLY,
    /** At once, as the stream opens: a dropped watch. */
    AT_ONCE,
    /** In the middle of the next event: a cut. */
    CUT_NEXT_EVENT
  }

  private static ApiResponse respond(Fault fault, RequestInfo info) {
    String message = fault.message();
    if (fault.code() == 409 && info.name() != null) {
      message =
          "Operation cannot be fulfilled on "
              + info.resource()
              + (info.group() == null || info.group().isEmpty() ? "" : "." + info.group())
              + " \""
              + info.name()
              + "\": "
              + message;
    }
    var details =
        info.name() == null && info.resource() == null
            ? null
            : StatusError.details(info.name(), info.group(), info.resource());
    if (fault.code() == 429 && details != null) {
      details.put("retryAfterSeconds", retryAfterSeconds(fault));
    }
    ApiResponse response =
        ApiResponse.error(new StatusError(fault.code(), fault.reason(), message, details));
    if (fault.code() == 429) {
      response = response.withHeader("Retry-After", Long.toString(retryAfterSeconds(fault)));
    }
    return response;
  }

  // A 429 made with Fault.status carries none: kube-apiserver's own 429s say 1 s.
  private static long retryAfterSeconds(Fault fault) {
    Duration d = fault.retryAfter();
    if (d == null) {
      return 1;
    }
    long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    return Math.max(1, seconds);
  }

  private static void sleep(Duration latency) {
    try {
      TimeUnit.NANOSECONDS.sleep(latency.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A watch result behind the rules (other results as they are). */
  private ApiResult controlled(ApiResult result, RequestInfo info, String userAgent, End end) {
    if (!(result instanceof WatchResult watch)) {
      return result;
    }
    return new WatchResult(
        sink -> {
          ControlledSink controlled =
              new ControlledSink(sink, info, userAgent, end == End.CUT_NEXT_EVENT);
          watches.add(controlled);
          Runnable stop = watch.opener().open(controlled);
          controlled.stopWith(stop);
          if (end == End.AT_ONCE) {
            controlled.drop();
          }
          return controlled::drop;
        });
  }

  /** The event rules covering a watch, newest first. */
  private List<Installed> eventRules(RequestInfo info, String userAgent) {
    List<Installed> result = new ArrayList<>();
    for (Installed rule : rules) {
      if (rule.rule.fault().onEvents()
          && rule.rule.matchesTarget(info.group(), info.resource(), info.namespace(), userAgent)) {
        result.add(rule);
      }
    }
    return result;
  }

  /**
   * One watch stream behind the fault rules: passes events through, holds them back or delays them,
   * in order, or breaks the stream at its next event. Sends arrive under the store lock (or from
   * the proxy's upstream reader) and never block.
   */
  private final class ControlledSink implements WatchSink {
    private final WatchSink sink;
    private final RequestInfo info;
    private final String userAgent;
    private final boolean cutAtNextEvent;
    private final Object lock = new Object();
    // Guarded by lock: events not yet delivered, oldest first; each delayed one has its due time.
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    // Guarded by lock.
    private @Nullable Runnable stop;
    // Guarded by lock.
    private boolean closed;

    private record Pending(WatchFrame event, long dueNanos) {}

    ControlledSink(WatchSink sink, RequestInfo info, String userAgent, boolean cutAtNextEvent) {
      this.sink = sink;
      this.info = info;
      this.userAgent = userAgent;
      this.cutAtNextEvent = cutAtNextEvent;
    }

    void stopWith(Runnable handle) {
      boolean run;
      synchronized (lock) {
        stop = handle;
        run = closed;
      }
      if (run) {
        handle.run();
      }
    }

    @Override
    public void send(WatchFrame event) {
      synchronized (lock) {
        if (closed) {
          return;
        }
        if (cutAtNextEvent) {
          byte[] line = event.line();
          abort(Arrays.copyOf(line, line.length / 2));
          return;
        }
        List<Installed> active = eventRules(info, userAgent);
        Installed hold = null;
        Installed delay = null;
        for (Installed rule : active) {
          if (rule.rule.fault().kind() == Fault.Kind.HOLD_EVENTS && hold == null) {
            hold = rule;
          } else if (rule.rule.fault().kind() == Fault.Kind.DELAY_EVENTS && delay == null) {
            delay = rule;
          }
        }
        if (hold != null) {
          hold.countEvent();
          queue.addLast(new Pending(event, Long.MIN_VALUE));
          return;
        }
        if (delay != null) {
          delay.countEvent();
          long due = clock.nanoTime() + delay.rule.fault().duration().toNanos();
          queue.addLast(new Pending(event, due));
          clock.schedule(delay.rule.fault().duration(), this::release);
          return;
        }
        if (!queue.isEmpty()) {
          // Keep the order behind events still delayed.
          queue.addLast(new Pending(event, clock.nanoTime()));
          return;
        }
        sink.send(event);
      }
    }

    /** Delivers the events no rule keeps any more, in order. */
    void release() {
      synchronized (lock) {
        boolean held =
            eventRules(info, userAgent).stream()
                .anyMatch(r -> r.rule.fault().kind() == Fault.Kind.HOLD_EVENTS);
        if (held) {
          return;
        }
        long now = clock.nanoTime();
        while (!queue.isEmpty()) {
          Pending head = queue.peekFirst();
          if (head.dueNanos() != Long.MIN_VALUE && head.dueNanos() > now) {
            break;
          }
          queue.removeFirst();
          if (!closed) {
            sink.send(head.event());
          }
        }
      }
    }

    @Override
    public void close() {
      synchronized (lock) {
        closed = true;
        queue.clear();
      }
      watches.remove(this);
      sink.close();
    }

    /**
     * Breaks the client's stream; the transport's close handler then stops the watch behind (as
     * when the client goes away), so nothing is stopped here, under the store lock.
     */
    @Override
    public void abort(byte[] partial) {
      synchronized (lock) {
        if (closed) {
          // Dropped or closed: the stream behind failing as it stops is no news to the client.
          return;
        }
        closed = true;
        queue.clear();
      }
      watches.remove(this);
      sink.abort(partial);
    }

    /** Ends the stream from the server side. */
    void drop() {
      Runnable handle;
      synchronized (lock) {
        closed = true;
        handle = stop;
      }
      if (handle != null) {
        handle.run();
      }
      close();
    }
  }
}
