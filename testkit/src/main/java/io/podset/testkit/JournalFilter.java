package io.podset.testkit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.http.RequestInfo;
import io.podset.testkit.internal.http.RequestNotes;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The {@link RequestJournal}: the outermost request filter, so it sees every request and the status
 * finally answered, including injected faults and the user a request was served as (which inner
 * filters report through {@link RequestNotes}).
 */
final class JournalFilter implements RequestFilter, RequestJournal {

  static final int CAPACITY = 100_000;

  private static final JsonFactory JSON = new JsonFactory();

  private final Function<ApiRequest, RequestInfo> resolver;
  private final Clock clock;
  private final Object lock = new Object();
  // Guarded by lock: the newest records, oldest first, at most CAPACITY.
  private final ArrayDeque<RequestRecord> records = new ArrayDeque<>();
  // Guarded by lock: the sequence number of the newest record ever added.
  private long sequence;

  /**
   * @param resolver what a request addresses (as the {@link FaultFilter} resolves it)
   */
  JournalFilter(Function<ApiRequest, RequestInfo> resolver, Clock clock) {
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public boolean mayBlock() {
    return false;
  }

  @Override
  public ApiResult filter(ApiRequest request, Chain next) {
    Instant arrived = clock.instant();
    long start = System.nanoTime();
    RequestNotes notes = RequestNotes.open();
    ApiResult result;
    try {
      result = next.proceed(request);
    } finally {
      notes.close();
    }
    List<String> faults = notes.faults();
    String user = notes.user() != null ? notes.user() : request.header("impersonate-user");
    Duration duration = Duration.ofNanos(System.nanoTime() - start);
    RequestInfo info = resolver.apply(request);
    String query = query(request.query());
    synchronized (lock) {
      records.addLast(
          new RequestRecord(
              ++sequence,
              arrived,
              info.verb(),
              request.method(),
              request.path(),
              query,
              info.group(),
              info.resource(),
              info.subresource(),
              info.namespace(),
              info.name() != null ? info.name() : createdName(info, result),
              request.header("user-agent"),
              user,
              result.status(),
              duration,
              faults.isEmpty() ? null : String.join(", ", faults)));
      while (records.size() > CAPACITY) {
        records.removeFirst();
      }
    }
    return result;
  }

  /**
   * The name of the object a create made, from its answer: a create names no object in its path,
   * and with {@code generateName} only the server knows the name. Null for other requests, a
   * refused create, or an answer that is no JSON object with {@code metadata.name} (say, protobuf).
   */
  private static @Nullable String createdName(RequestInfo info, ApiResult result) {
    if (!info.verb().equals("create")
        || !(result instanceof ApiResponse response)
        || response.status() / 100 != 2
        || !response.contentType().startsWith("application/json")) {
      return null;
    }
    try (JsonParser parser = JSON.createParser(response.body())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      // metadata comes second in the server's answers, so this reads a few tokens of the body
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("metadata") && value == JsonToken.START_OBJECT) {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String metadataField = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_STRING && metadataField.equals("name")) {
              return parser.getText();
            }
            parser.skipChildren();
          }
          return null;
        }
        parser.skipChildren();
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  /** The query as {@code key=value} pairs sorted by key, joined by {@code &}. */
  private static String query(Map<String, String> query) {
    if (query.isEmpty()) {
      return "";
    }
    StringBuilder joined = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(query).entrySet()) {
      if (joined.length() > 0) {
        joined.append('&');
      }
      joined.append(e.getKey()).append('=').append(e.getValue());
    }
    return joined.toString();
  }

  @Override
  public Mark mark() {
    synchronized (lock) {
      return new Mark(sequence);
    }
  }

  @Override
  public List<RequestRecord> records() {
    synchronized (lock) {
      return List.copyOf(records);
    }
  }

  @Override
  public List<RequestRecord> records(RequestMatcher matcher) {
    Objects.requireNonNull(matcher, "matcher");
    return records().stream().filter(matcher).toList();
  }

  @Override
  public int count(RequestMatcher matcher) {
    return records(matcher).size();
  }

  @Override
  public void clear() {
    synchronized (lock) {
      records.clear();
    }
  }

  @Override
  public void assertCount(RequestMatcher matcher, int expected) {
    List<RequestRecord> all = records();
    List<RequestRecord> matching = all.stream().filter(matcher).toList();
    if (matching.size() != expected) {
      throw new AssertionError(
          "expected "
              + expected
              + " "
              + matcher
              + " but found "
              + matching.size()
              + describe(matching.isEmpty() ? tail(all) : matching, matching.isEmpty()));
    }
  }

  @Override
  public void assertNone(RequestMatcher matcher) {
    List<RequestRecord> matching = records(matcher);
    if (!matching.isEmpty()) {
      throw new AssertionError(
          "expected no " + matcher + " but found " + matching.size() + describe(matching, false));
    }
  }

  private static List<RequestRecord> tail(List<RequestRecord> all) {
    return all.subList(Math.max(0, all.size() - 20), all.size());
  }

  private static String describe(List<RequestRecord> list, boolean lastOnes) {
    if (list.isEmpty()) {
      return "; the journal is empty";
    }
    List<String> lines = new ArrayList<>();
    lines.add(lastOnes ? "; the last requests were:" : ":");
    int shown = Math.min(list.size(), 50);
    for (int i = 0; i < shown; i++) {
      lines.add("  " + list.get(i));
    }
    if (shown < list.size()) {
      lines.add("  ... and " + (list.size() - shown) + " more");
    }
    return String.join("\n", lines);
  }
}
