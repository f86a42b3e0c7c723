package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchHandle;
import io.podset.runtime.informer.transport.WatchListener;
import io.podset.runtime.informer.transport.WatchRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ListerWatcher} driven step by step by a test: each list or watch call blocks until the
 * test answers it, and the test pushes watch events synchronously into the reflector.
 */
final class ScriptedListerWatcher<T extends HasMetadata> implements ListerWatcher<T> {

  private final BlockingQueue<ListCall<T>> lists = new LinkedBlockingQueue<>();
  private final BlockingQueue<WatchCall<T>> watches = new LinkedBlockingQueue<>();
  // The server's newest version the lag probe reads; null: the probe's read fails.
  private volatile String latestVersion;
  private final java.util.concurrent.atomic.AtomicInteger probes =
      new java.util.concurrent.atomic.AtomicInteger();

  @Override
  public ListPage<T> list(ListRequest request) {
    ListCall<T> call = new ListCall<>(request);
    lists.add(call);
    return join(call.response);
  }

  @Override
  public WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    WatchCall<T> call = new WatchCall<>(request, listener);
    watches.add(call);
    join(call.started);
    return call::markClosedByClient;
  }

  /** Answers the lag probe apart from the scripted lists, from {@link #latestVersion(String)}. */
  @Override
  public String latestResourceVersion() {
    probes.incrementAndGet();
    String version = latestVersion;
    if (version == null) {
      throw new IllegalStateException("no server version scripted");
    }
    return version;
  }

  /** What the lag probe reads from now on (null: its reads fail). */
  void latestVersion(String version) {
    latestVersion = version;
  }

  /** How many times the lag probe read. */
  int probes() {
    return probes.get();
  }

  @Override
  public String description() {
    return "scripted";
  }

  /** The next list call, waiting for it. */
  ListCall<T> nextList() {
    return poll(lists, "a list call");
  }

  /** The next watch call, waiting for it. */
  WatchCall<T> nextWatch() {
    return poll(watches, "a watch call");
  }

  /** Asserts that no list or watch call is waiting. */
  void assertNoPendingCalls() {
    assertThat(lists).as("pending list calls").isEmpty();
    assertThat(watches).as("pending watch calls").isEmpty();
  }

  private static <C> C poll(BlockingQueue<C> queue, String what) {
    try {
      C call = queue.poll(Awaits.DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      if (call == null) {
        throw new AssertionError("timed out waiting for " + what);
      }
      return call;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private static <V> V join(CompletableFuture<V> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the script", e);
    } catch (ExecutionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  /** A list call waiting for its answer. */
  static final class ListCall<T extends HasMetadata> {
    final ListRequest request;
    private final CompletableFuture<ListPage<T>> response = new CompletableFuture<>();

    ListCall(ListRequest request) {
      this.request = request;
    }

    void reply(String resourceVersion, List<T> items) {
      response.complete(new ListPage<>(items, resourceVersion, null));
    }

    void replyPage(String resourceVersion, String continueToken, List<T> items) {
      response.complete(new ListPage<>(items, resourceVersion, continueToken));
    }

    void fail(RuntimeException error) {
      response.completeExceptionally(error);
    }
  }

  /** A watch call; {@link #accept()} establishes it, then the test pushes events. */
  static final class WatchCall<T extends HasMetadata> {
    final WatchRequest request;
    private final WatchListener<T> listener;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile boolean closedByClient;

    WatchCall(WatchRequest request, WatchListener<T> listener) {
      this.request = request;
      this.listener = listener;
    }

    WatchCall<T> accept() {
      started.complete(null);
      return this;
    }

    void fail(RuntimeException error) {
      started.completeExceptionally(error);
    }

    WatchCall<T> added(T obj) {
      listener.onEvent(new WatchEvent.Added<>(obj));
      return this;
    }

    WatchCall<T> modified(T obj) {
      listener.onEvent(new WatchEvent.Modified<>(obj));
      return this;
    }

    WatchCall<T> deleted(T obj) {
      listener.onEvent(new WatchEvent.Deleted<>(obj));
      return this;
    }

    WatchCall<T> bookmark(String resourceVersion) {
      listener.onEvent(new WatchEvent.Bookmark<>(resourceVersion, Map.of()));
      return this;
    }

    WatchCall<T> initialEventsEnd(String resourceVersion) {
      listener.onEvent(
          new WatchEvent.Bookmark<>(
              resourceVersion, Map.of(WatchEvent.INITIAL_EVENTS_END, "true")));
      return this;
    }

    void end() {
      listener.onClose(null);
    }

    void end(RuntimeException error) {
      listener.onClose(error);
    }

    boolean closedByClient() {
      return closedByClient;
    }

    private void markClosedByClient() {
      closedByClient = true;
    }
  }
}
