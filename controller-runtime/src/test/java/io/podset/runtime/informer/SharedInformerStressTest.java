package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.event.Event;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A producer races the informer over 100k changes on 1k keys, while watches break, history is
 * compacted (410 then relist, so deletions are only found as tombstones) and a reader queries the
 * cache. In the end the cache and the mirrors of a handler on its own thread and of an inline one
 * must all equal the server's state.
 */
class SharedInformerStressTest {

  private static final int KEYS = 1_000;
  private static final int CHANGES = 100_000;

  /** An in-memory API server for pods: state, history for watch resume, one live watch. */
  private static final class FakeServer implements ListerWatcher<Pod> {
    private final Object lock = new Object();
    // All guarded by lock.
    private long resourceVersion = 1;
    private long compactedTo = 0;
    private final Map<String, Pod> state = new HashMap<>();
    private final TreeMap<Long, WatchEvent<Pod>> history = new TreeMap<>();
    private WatchListener<Pod> live;
    private final Map<String, List<Pod>> snapshots = new HashMap<>();
    private final Map<String, String> snapshotVersions = new HashMap<>();
    private int tokens;
    private volatile CountDownLatch listGate = new CountDownLatch(0);

    @Override
    public String latestResourceVersion() {
      synchronized (lock) {
        return String.valueOf(resourceVersion);
      }
    }

    @Override
    public ListPage<Pod> list(ListRequest request) {
      try {
        listGate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      synchronized (lock) {
        List<Pod> items;
        String version;
        int offset;
        if (request.continueToken() == null) {
          items = new ArrayList<>(state.values());
          version = String.valueOf(resourceVersion);
          offset = 0;
        } else {
          String[] parts = request.continueToken().split(":");
          items = snapshots.remove(parts[0]);
          version = snapshotVersions.remove(parts[0]);
          offset = Integer.parseInt(parts[1]);
        }
        int end = (int) Math.min(items.size(), offset + request.limit());
        String next = null;
        if (end < items.size()) {
          String id = "t" + tokens++;
          snapshots.put(id, items);
          snapshotVersions.put(id, version);
          next = id + ":" + end;
        }
        return new ListPage<>(items.subList(offset, end), version, next);
      }
    }

    @Override
    public WatchHandle watch(WatchRequest request, WatchListener<Pod> listener) {
      synchronized (lock) {
        long from = Long.parseLong(request.resourceVersion());
        if (from < compactedTo) {
          throw Pods.gone();
        }
        for (WatchEvent<Pod> event : history.tailMap(from, false).values()) {
          listener.onEvent(event);
        }
        live = listener;
      }
      return () -> {
        synchronized (lock) {
          if (live == listener) {
            live = null;
          }
        }
      };
    }

    @Override
    public String description() {
      return "fake pods";
    }

    void change(String name, Random random) {
      synchronized (lock) {
        long rv = ++resourceVersion;
        Pod current = state.get(name);
        WatchEvent<Pod> event;
        if (current == null) {
          Pod created = Pods.pod(name, String.valueOf(rv));
          state.put(name, created);
          event = new WatchEvent.Added<>(created);
        } else if (random.nextInt(10) < 7) {
          Pod updated = Pods.pod(name, String.valueOf(rv));
          state.put(name, updated);
          event = new WatchEvent.Modified<>(updated);
        } else {
          state.remove(name);
          event = new WatchEvent.Deleted<>(Pods.pod(name, String.valueOf(rv)));
        }
        history.put(rv, event);
        if (live != null) {
          live.onEvent(event);
        }
      }
    }

    /** Breaks the live watch; with {@code compact}, older history is gone (410 on resume). */
    void breakWatch(boolean compact) {
      synchronized (lock) {
        if (compact) {
          // Even a watch resuming from the current version must relist.
          compactedTo = resourceVersion + 1;
          history.clear();
        }
        if (live != null) {
          WatchListener<Pod> listener = live;
          live = null;
          listener.onClose(compact ? Pods.gone() : Pods.connectionRefused());
        }
      }
    }

    /** Lists wait until {@link #releaseLists()}: changes meanwhile are seen only by the relist. */
    void holdLists() {
      listGate = new CountDownLatch(1);
    }

    void releaseLists() {
      listGate.countDown();
    }

    Map<String, String> versions() {
      synchronized (lock) {
        Map<String, String> out = new HashMap<>();
        state.forEach((k, v) -> out.put("default/" + k, v.getMetadata().getResourceVersion()));
        return out;
      }
    }

    String resourceVersion() {
      synchronized (lock) {
        return String.valueOf(resourceVersion);
      }
    }
  }

  /**
   * Mirrors the cache from notifications and counts any that contradict the mirror, or that overlap
   * another call (a handler is called one notification at a time).
   */
  private static final class Mirror implements ResourceEventHandler<Pod> {
    final Map<String, String> versions = new ConcurrentHashMap<>();
    final AtomicInteger anomalies = new AtomicInteger();
    final AtomicLong deletes = new AtomicLong();
    final AtomicLong tombstones = new AtomicLong();
    private final AtomicInteger inCall = new AtomicInteger();

    private static String key(Pod pod) {
      return "default/" + pod.getMetadata().getName();
    }

    private void enter() {
      if (inCall.incrementAndGet() != 1) {
        anomalies.incrementAndGet();
      }
    }

    @Override
    public void onEvent(Event<Pod> event) {
      enter();
      Pod obj = event.object();
      if (event instanceof Event.Added<Pod>) {
        if (versions.put(key(obj), obj.getMetadata().getResourceVersion()) != null) {
          anomalies.incrementAndGet();
        }
      } else if (event instanceof Event.Updated<Pod> update) {
        String had = versions.put(key(obj), obj.getMetadata().getResourceVersion());
        if (had == null || !had.equals(update.oldObject().getMetadata().getResourceVersion())) {
          anomalies.incrementAndGet();
        }
      } else if (event instanceof Event.Deleted<Pod> delete) {
        deletes.incrementAndGet();
        if (delete.finalStateUnknown()) {
          tombstones.incrementAndGet();
        }
        if (versions.remove(key(obj)) == null) {
          anomalies.incrementAndGet();
        }
      }
      inCall.decrementAndGet();
    }
  }

  @Test
  void producerRacingTheInformer_endsWithTheServersExactState() throws Exception {
    FakeServer server = new FakeServer();
    Random random = new Random(42);
    ReflectorConfig config =
        ReflectorConfig.defaults()
            .withBackoff(Duration.ofMillis(1), Duration.ofMillis(5), () -> 0.5);
    Mirror mirror = new Mirror();
    // Inline: called by whichever thread applies a change (the producer's, via the watch, or the
    // informer's after a relist), never two at once.
    Mirror inline = new Mirror();
    AtomicBoolean readerFailed = new AtomicBoolean();
    AtomicBoolean done = new AtomicBoolean();
    try (SharedInformer<Pod> informer =
        SharedInformers.create(
            Pod.class, server, InformerOptions.defaults(), Clock.system(), config)) {
      informer.addEventHandler(mirror);
      informer.addInlineEventHandler(inline);
      for (int i = 0; i < KEYS / 2; i++) {
        server.change("p" + i, random);
      }
      informer.start();
      Thread reader = new Thread(() -> readWhileRunning(informer, done, readerFailed));
      reader.start();

      long started = System.nanoTime();
      long expectedRelists = 0;
      for (int i = 0; i < CHANGES; i++) {
        server.change("p" + random.nextInt(KEYS), random);
        if (i % 5_000 == 4_999) {
          server.breakWatch(false);
        }
        if (i % 20_000 == 7_777) {
          // Compact history and break the watch; hold the relist back for 2000 changes, so
          // deletions in between reach the informer only as tombstones from the relist.
          server.holdLists();
          server.breakWatch(true);
          expectedRelists++;
        }
        if (i % 20_000 == 9_777) {
          server.releaseLists();
          long target = expectedRelists;
          Awaits.until(() -> informer.health().relistCount() >= target, "relist " + target);
        }
      }
      long producedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      Map<String, String> expected = server.versions();
      informer.awaitObserved(server.resourceVersion()).get(30, TimeUnit.SECONDS);
      Map<String, String> cached = new HashMap<>();
      informer
          .indexer()
          .list()
          .forEach(
              p ->
                  cached.put(
                      "default/" + p.getMetadata().getName(),
                      p.getMetadata().getResourceVersion()));
      assertThat(cached).isEqualTo(expected);
      Awaits.until(() -> mirror.versions.equals(expected), "handler mirror equals server state");
      assertThat(inline.versions).isEqualTo(expected);
      assertThat(inline.anomalies).hasValue(0);
      assertThat(inline.deletes.get()).isEqualTo(mirror.deletes.get());
      done.set(true);
      reader.join();

      assertThat(mirror.anomalies).hasValue(0);
      assertThat(readerFailed).isFalse();
      assertThat(mirror.tombstones.get()).isPositive();
      assertThat(mirror.deletes.get()).isGreaterThan(mirror.tombstones.get());
      assertThat(informer.health().relistCount()).isGreaterThanOrEqualTo(5);
      System.out.printf(
          "stress: %d changes in %d ms, %d deletes seen (%d tombstones), %d relists%n",
          CHANGES,
          producedMillis,
          mirror.deletes.get(),
          mirror.tombstones.get(),
          informer.health().relistCount());
    }
  }

  private static void readWhileRunning(
      SharedInformer<Pod> informer, AtomicBoolean done, AtomicBoolean failed) {
    while (!done.get()) {
      for (Pod pod : informer.indexer().list()) {
        if (pod.getMetadata().getResourceVersion() == null) {
          failed.set(true);
        }
      }
      informer.indexer().getByKey("default/p1");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
