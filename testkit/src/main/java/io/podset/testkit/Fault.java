package io.podset.testkit;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FaultRule} does to a matching request: answer with an error {@code Status}, add
 * latency, compact the history first, break the connection in the middle of the answer, or (for
 * watches) end the stream, or hold back or delay its events.
 *
 * <p>Immutable.
 */
public final class Fault {

  /** The kinds of fault. */
  enum Kind {
    STATUS,
    LATENCY,
    COMPACT_HISTORY,
    DROP_WATCH,
    CUT_RESPONSE,
    HOLD_EVENTS,
    DELAY_EVENTS
  }

  private final Kind kind;
  private final int code;
  private final @Nullable String reason;
  private final @Nullable String message;
  private final @Nullable Duration duration;

  private Fault(
      Kind kind,
      int code,
      @Nullable String reason,
      @Nullable String message,
      @Nullable Duration duration) {
    this.kind = kind;
    this.code = code;
    this.reason = reason;
    this.message = message;
    this.duration = duration;
  }

  /**
   * Answers with a {@code Status} of the code, reason and message.
   *
   * @throws IllegalArgumentException if {@code code} is not in 400..599
   */
  public static Fault status(int code, String reason, String message) {
    if (code < 400 || code > 599) {
      throw new IllegalArgumentException("a fault status must be in 400..599: " + code);
    }
    return new Fault(
        Kind.STATUS,
        code,
        Objects.requireNonNull(reason, "reason"),
        Objects.requireNonNull(message, "message"),
        null);
  }

  /** 409 Conflict, as for a stale resourceVersion. */
  public static Fault conflict() {
    return status(
        409,
        "Conflict",
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  /**
   * 410 Expired, as for a resourceVersion older than the history. On a watch request the client
   * relists; to make a running informer watch again, end its stream with {@link
   * FaultInjector#dropWatches} after it received an event.
   */
  public static Fault gone() {
    return status(410, "Expired", "too old resource version (injected fault)");
  }

  /**
   * 429 TooManyRequests with {@code Retry-After} (whole seconds, at least 1).
   *
   * @throws IllegalArgumentException if {@code retryAfter} is negative
   */
  public static Fault tooManyRequests(Duration retryAfter) {
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative: " + retryAfter);
    }
    return new Fault(
        Kind.STATUS,
        429,
        "TooManyRequests",
        "the server has received too many requests and has asked us to try again later",
        retryAfter);
  }

  /**
   * A server error: 500 InternalError, 503 ServiceUnavailable, 504 Timeout, or another 5xx.
   *
   * @throws IllegalArgumentException if {@code code} is not in 500..599
   */
  public static Fault serverError(int code) {
    if (code < 500 || code > 599) {
      throw new IllegalArgumentException("serverError needs a code in 500..599: " + code);
    }
    return switch (code) {
      case 503 -> status(503, "ServiceUnavailable", "the server is currently unable to handle it");
      case 504 -> timeout();
      default -> status(code, "InternalError", "Internal error occurred: injected fault");
    };
  }

  /** 504 Timeout, as when the server could not answer in time. */
  public static Fault timeout() {
    return status(
        504,
        "Timeout",
        "the server was unable to return a response in the time allotted, but may still be"
            + " processing the request");
  }

  /**
   * Serves the request normally after {@code latency} of real time (the filter blocks a worker).
   *
   * @throws IllegalArgumentException if {@code latency} is negative
   */
  public static Fault latency(Duration latency) {
    return new Fault(Kind.LATENCY, 0, null, null, positive("latency", latency));
  }

  /**
   * Forgets the change history, then serves the request: a watch resuming from an older revision
   * gets an ERROR event with 410, as after an etcd compaction. Only the {@link FakeApiServer} has a
   * history to forget: a {@link FaultProxy} refuses the rule.
   */
  public static Fault compactHistory() {
    return new Fault(Kind.COMPACT_HISTORY, 0, null, null, null);
  }

  /**
   * For watch requests: the stream opens and ends at once, so the client watches again. Note that
   * fabric8 (7.x) takes a watch that ends cleanly within 2 s without any message as a 410 of its
   * own and relists.
   */
  public static Fault dropWatch() {
    return new Fault(Kind.DROP_WATCH, 0, null, null, null);
  }

  /**
   * Breaks the connection in the middle of the answer, as a network failure would: a complete
   * response sends its status, its headers (with the whole body's {@code Content-Length}) and half
   * its body, then the connection closes (HTTP/2: the stream is reset); a watch opens, then breaks
   * in the middle of its next event (half of its JSON line is sent). The request itself is served:
   * a write is done although its client sees a failure. Over WebSocket a watch just closes (a
   * message cannot be sent in part).
   */
  public static Fault cutResponse() {
    return new Fault(Kind.CUT_RESPONSE, 0, null, null, null);
  }

  /**
   * For watches (open ones and new ones) of the rule's resource and namespace: events are held
   * back, in order, until the rule is removed (a stale cache). Request criteria other than
   * resource, namespace and verb do not apply.
   */
  public static Fault holdEvents() {
    return new Fault(Kind.HOLD_EVENTS, 0, null, null, null);
  }

  /**
   * For watches (open ones and new ones) of the rule's resource and namespace: each event arrives
   * {@code delay} later on the server's clock, in order, while the rule is in place.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public static Fault delayEvents(Duration delay) {
    return new Fault(Kind.DELAY_EVENTS, 0, null, null, positive("delay", delay));
  }

  private static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
    return value;
  }

  Kind kind() {
    return kind;
  }

  int code() {
    return code;
  }

  @Nullable String reason() {
    return reason;
  }

  @Nullable String message() {
    return message;
  }

  /** The latency or the event delay. */
  Duration duration() {
    return requiredDuration();
  }

  /** The Retry-After of a status; null when it sets none. */
  @Nullable Duration retryAfter() {
    return kind == Kind.STATUS ? duration : null;
  }

  /** Whether the fault acts on the events of watch streams rather than on requests. */
  boolean onEvents() {
    return kind == Kind.HOLD_EVENTS || kind == Kind.DELAY_EVENTS;
  }

  @Override
  public String toString() {
    return switch (kind) {
      case STATUS ->
          code
              + " "
              + reason
              + (duration == null ? "" : " retry after " + duration.toSeconds() + "s");
      case LATENCY -> "latency " + requiredDuration().toMillis() + " ms";
      case COMPACT_HISTORY -> "compact history";
      case DROP_WATCH -> "drop watch";
      case CUT_RESPONSE -> "cut response";
      case HOLD_EVENTS -> "hold events";
      case DELAY_EVENTS -> "delay events " + requiredDuration().toMillis() + " ms";
    };
  }

  // Latency and delays always have a duration.
  private Duration requiredDuration() {
    if (kind != Kind.LATENCY && kind != Kind.DELAY_EVENTS) {
      throw new IllegalStateException("a " + kind + " fault has no duration");
    }
    return Objects.requireNonNull(duration, "duration");
  }
}
