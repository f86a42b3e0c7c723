package io.podset.operator.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Every change to pods, PodSets and Leases of a cluster, in resourceVersion order, as an observer
 * outside the operator sees them: one list then one watch per resource, opened with the user agent
 * {@value #USER_AGENT} so that fault rules scoped to the operator's user agent spare it. A watch
 * that ends resumes from the newest version it showed, which loses no intermediate state (the
 * server sends every change after it); a watch that reports an error (410: the server's history no
 * longer holds them) or cannot resume marks the history {@link #broken()}.
 *
 * <p>Each change carries the instant it was received (monotonic nanos), used for the time windows
 * of {@link PodSetInvariants}. Thread-safe.
 */
final class ClusterHistory implements AutoCloseable {

  /** The user agent of the observer's requests. */
  static final String USER_AGENT = "podset-reliability-observer";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The resources observed: path prefix and short name. */
  enum Resource {
    PODS("/api/v1/pods"),
    PODSETS("/apis/app.example.com/v1alpha1/podsets"),
    LEASES("/apis/coordination.k8s.io/v1/leases");

    final String path;

    Resource(String path) {
      this.path = path;
    }
  }

  /**
   * One observed change.
   *
   * @param resource what changed
   * @param type ADDED, MODIFIED or DELETED (the initial list is reported as ADDED)
   * @param resourceVersion the object's resourceVersion after the change
   * @param receivedNanos when the observer received it ({@link System#nanoTime()})
   * @param object the object after the change (for DELETED: its last state)
   */
  record Change(
      Resource resource, String type, long resourceVersion, long receivedNanos, JsonNode object) {}

  // HTTP/1.1: one connection per watch. (Over HTTP/2 the watches would share a connection, and
  // the fake server's Vert.x HTTP/2 connection lock, taken by a watch write under the store lock,
  // was seen to deadlock with a new stream waiting for the store lock on the event loop.)
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI base;
  private final List<Stream<String>> streams = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Thread> readers = new ArrayList<>();

  private final Object lock = new Object();
  // Guarded by lock: changes per resource in arrival (= resourceVersion) order.
  private final List<List<Change>> changes = new ArrayList<>();
  // Guarded by lock: the newest resourceVersion each watch has shown (events and bookmarks).
  private final long[] watermark = new long[Resource.values().length];
  // Guarded by lock: why the history is incomplete, or null.
  private String broken;
  // Guarded by lock: how many times a watch that ended was opened again.
  private long resumes;
  private boolean closed;

  private ClusterHistory(URI base) {
    this.base = base;
    for (int i = 0; i < Resource.values().length; i++) {
      changes.add(new ArrayList<>());
    }
  }

  /** Lists and starts watching pods, PodSets and Leases of the server at {@code base}. */
  static ClusterHistory start(URI base) {
    ClusterHistory history = new ClusterHistory(Objects.requireNonNull(base, "base"));
    for (Resource resource : Resource.values()) {
      history.listAndWatch(resource);
    }
    return history;
  }

  private void listAndWatch(Resource resource) {
    JsonNode list;
    try {
      list = JSON.readTree(get(resource.path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long listVersion = Long.parseLong(list.path("metadata").path("resourceVersion").asText("0"));
    long now = System.nanoTime();
    synchronized (lock) {
      for (JsonNode item : list.path("items")) {
        changes.get(resource.ordinal()).add(new Change(resource, "ADDED", rv(item), now, item));
      }
      watermark[resource.ordinal()] = listVersion;
    }
    Stream<String> first = watch(resource, listVersion);
    Thread reader = new Thread(() -> read(resource, first), "history-" + resource);
    reader.setDaemon(true);
    readers.add(reader);
    reader.start();
  }

  /** Opens a watch of {@code resource} from {@code version}; its lines are the stream. */
  private Stream<String> watch(Resource resource, long version) {
    HttpResponse<Stream<String>> response;
    try {
      response =
          http.send(
              request(
                  resource.path
                      + "?watch=true&allowWatchBookmarks=true&resourceVersion="
                      + version),
              HttpResponse.BodyHandlers.ofLines());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    if (response.statusCode() != 200) {
      throw new IllegalStateException("watch " + resource + ": HTTP " + response.statusCode());
    }
    Stream<String> lines = response.body();
    streams.add(lines);
    return lines;
  }

  /**
   * Reads a watch; when it ends or its connection breaks, watches again from the newest version it
   * showed, which loses nothing (the server sends every change after that version, or an ERROR with
   * 410 if its history no longer holds them: that breaks the history). kube-apiserver ends the
   * watch of a client that reads too slowly for a moment, as it may on a loaded machine.
   */
  private void read(Resource resource, Stream<String> first) {
    Stream<String> lines = first;
    while (true) {
      try {
        lines.forEach(line -> accept(resource, line));
      } catch (RuntimeException e) {
        // The connection broke: resumed below, unless closed.
      }
      long from;
      synchronized (lock) {
        if (closed || broken != null) {
          return;
        }
        from = watermark[resource.ordinal()];
        resumes++;
      }
      try {
        lines = watch(resource, from);
      } catch (RuntimeException e) {
        markBroken("the watch of " + resource + " could not resume from " + from + ": " + e);
        return;
      }
    }
  }

  private void accept(Resource resource, String line) {
    if (line.isBlank()) {
      return;
    }
    JsonNode event;
    try {
      event = JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String type = event.path("type").asText();
    JsonNode object = event.path("object");
    long now = System.nanoTime();
    synchronized (lock) {
      switch (type) {
        case "BOOKMARK" -> watermark[resource.ordinal()] = rv(object);
        case "ADDED", "MODIFIED", "DELETED" -> {
          long version = rv(object);
          changes.get(resource.ordinal()).add(new Change(resource, type, version, now, object));
          watermark[resource.ordinal()] = version;
        }
        default -> {
          if (broken == null) {
            broken = "watch of " + resource + " reported " + event;
          }
        }
      }
      lock.notifyAll();
    }
  }

  private void markBroken(String why) {
    synchronized (lock) {
      if (!closed && broken == null) {
        broken = why;
      }
    }
  }

  private static long rv(JsonNode object) {
    return Long.parseLong(object.path("metadata").path("resourceVersion").asText("0"));
  }

  private String get(String path) {
    try {
      HttpResponse<String> response =
          http.send(request(path), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("GET " + path + ": HTTP " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private HttpRequest request(String pathAndQuery) {
    return HttpRequest.newBuilder(base.resolve(pathAndQuery))
        .header("User-Agent", USER_AGENT)
        .GET()
        .build();
  }

  /** How many times a watch that ended (or whose connection broke) was opened again. */
  long resumes() {
    synchronized (lock) {
      return resumes;
    }
  }

  /** Why the history is incomplete (an ERROR event, or a watch that could not resume), or null. */
  String broken() {
    synchronized (lock) {
      return broken;
    }
  }

  /**
   * The resourceVersion up to which every resource's changes are known: the least of the watches'
   * newest versions.
   */
  long complete() {
    synchronized (lock) {
      long min = Long.MAX_VALUE;
      for (long w : watermark) {
        min = Math.min(min, w);
      }
      return min;
    }
  }

  /**
   * Waits until every watch has shown {@code resourceVersion} (by an event or a bookmark).
   *
   * @throws AssertionError if that takes longer than {@code timeout} or the history broke
   */
  void awaitComplete(long resourceVersion, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (complete() < resourceVersion) {
      String why = broken();
      if (why != null) {
        throw new AssertionError("the observer's history is incomplete: " + why);
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "the observer's watches did not reach resourceVersion "
                + resourceVersion
                + " within "
                + timeout
                + " (at "
                + complete()
                + ")");
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  /**
   * The changes with a resourceVersion in ({@code after}, {@code upTo}] of every resource, in
   * resourceVersion order.
   */
  List<Change> changes(long after, long upTo) {
    List<Change> result = new ArrayList<>();
    synchronized (lock) {
      for (List<Change> list : changes) {
        for (int i = firstAfter(list, after); i < list.size(); i++) {
          Change c = list.get(i);
          if (c.resourceVersion() > upTo) {
            break;
          }
          result.add(c);
        }
      }
    }
    result.sort(Comparator.comparingLong(Change::resourceVersion));
    return result;
  }

  /** The index of the first change after {@code version} (lists are sorted by version). */
  private static int firstAfter(List<Change> list, long version) {
    int lo = 0;
    int hi = list.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (list.get(mid).resourceVersion() <= version) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
    for (Stream<String> lines : streams) {
      lines.close();
    }
    for (Thread reader : readers) {
      reader.interrupt();
    }
  }
}
