package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.cache.MutableIndexer;
import io.podset.runtime.cache.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DeltaFifoTest {

  private final MutableIndexer<Pod> cache = MutableIndexer.create();
  private final AtomicInteger syncedCalls = new AtomicInteger();
  private final List<String> observed = new ArrayList<>();
  private final DeltaFifo<Pod> fifo =
      new DeltaFifo<>(cache, syncedCalls::incrementAndGet, observed::add);

  /** Pops one key, applying its deltas to the cache like an informer; returns the deltas. */
  private List<Delta<Pod>> popOne() throws InterruptedException {
    List<List<Delta<Pod>>> popped = new ArrayList<>();
    fifo.pop(
        (key, deltas) -> {
          popped.add(deltas);
          for (Delta<Pod> delta : deltas) {
            if (delta.type() == DeltaType.DELETED) {
              cache.delete(ObjectKey.parse(key));
            } else {
              cache.upsert(delta.object());
            }
          }
        });
    return popped.get(0);
  }

  private static List<String> describe(List<Delta<Pod>> deltas) {
    List<String> out = new ArrayList<>();
    for (Delta<Pod> delta : deltas) {
      out.add(
          delta.type()
              + ":"
              + delta.object().getMetadata().getResourceVersion()
              + (delta.finalStateUnknown() ? ":tombstone" : ""));
    }
    return out;
  }

  @Test
  void addThenUpdate_queuesKeyOnce_withBothDeltasInOrder() throws Exception {
    fifo.add(pod("a", "1"));
    fifo.add(pod("b", "2"));
    fifo.update(pod("a", "3"));

    assertThat(fifo.queuedKeys()).containsExactly("default/a", "default/b");
    assertThat(describe(popOne())).containsExactly("ADDED:1", "UPDATED:3");
    assertThat(describe(popOne())).containsExactly("ADDED:2");
  }

  @Test
  void twoConsecutiveDeletes_collapse_butNotOtherDuplicates() throws Exception {
    fifo.add(pod("a", "1"));
    fifo.update(pod("a", "2"));
    fifo.update(pod("a", "2"));
    fifo.delete(pod("a", "3"));
    fifo.delete(pod("a", "4"));

    assertThat(describe(fifo.deltas("default/a")))
        .containsExactly("ADDED:1", "UPDATED:2", "UPDATED:2", "DELETED:4");
  }

  @Test
  void delete_ofKeyNeitherCachedNorQueued_isIgnored() {
    assertThat(fifo.delete(pod("ghost", "5"))).isFalse();

    assertThat(fifo.queuedKeys()).isEmpty();
  }

  @Test
  void replace_queuesReplacedForListed_andTombstonesForVanishedKeys() throws Exception {
    cache.upsert(pod("known-kept", "1"));
    cache.upsert(pod("known-gone", "2"));
    fifo.add(pod("queued-gone", "3"));

    fifo.replace(List.of(pod("known-kept", "1"), pod("new", "9")), "10");

    assertThat(describe(fifo.deltas("default/known-kept"))).containsExactly("REPLACED:1");
    assertThat(describe(fifo.deltas("default/new"))).containsExactly("REPLACED:9");
    assertThat(describe(fifo.deltas("default/known-gone"))).containsExactly("DELETED:2:tombstone");
    assertThat(describe(fifo.deltas("default/queued-gone")))
        .containsExactly("ADDED:3", "DELETED:3:tombstone");
  }

  @Test
  void tombstone_followingARealDelete_keepsTheRealDelete() {
    cache.upsert(pod("a", "1"));
    fifo.delete(pod("a", "2"));

    fifo.replace(List.of(), "3");

    assertThat(describe(fifo.deltas("default/a"))).containsExactly("DELETED:2");
  }

  @Test
  void resync_queuesSyncOnlyForCachedKeysWithNothingQueued() {
    cache.upsert(pod("idle", "1"));
    cache.upsert(pod("busy", "2"));
    fifo.update(pod("busy", "3"));

    fifo.resync();

    assertThat(describe(fifo.deltas("default/idle"))).containsExactly("SYNC:1");
    assertThat(describe(fifo.deltas("default/busy"))).containsExactly("UPDATED:3");
  }

  @Test
  void hasSynced_onlyAfterEveryKeyOfTheFirstReplaceIsPopped() throws Exception {
    fifo.add(pod("before", "1"));
    assertThat(fifo.hasSynced()).isFalse();

    fifo.replace(List.of(pod("a", "2"), pod("b", "3")), "5");
    fifo.add(pod("after", "6"));

    popOne();
    popOne();
    assertThat(fifo.hasSynced()).isFalse();
    popOne();
    assertThat(fifo.hasSynced()).isTrue();
    assertThat(syncedCalls).hasValue(1);
    assertThat(fifo.queuedKeys()).containsExactly("default/after");
  }

  @Test
  void hasSynced_immediatelyAfterAnEmptyFirstReplace() {
    fifo.replace(List.of(), "7");

    assertThat(fifo.hasSynced()).isTrue();
    assertThat(syncedCalls).hasValue(1);
    assertThat(fifo.observedResourceVersion()).isEqualTo("7");
  }

  @Test
  void observedVersion_neverPassesAChangeStillQueued() throws Exception {
    fifo.replace(List.of(), "1");
    fifo.add(pod("b", "3"));
    fifo.add(pod("a", "5"));
    fifo.update(pod("b", "7"));

    popOne(); // b: 3 and 7, while a's 5 is still queued

    assertThat(fifo.observedResourceVersion()).isEqualTo("3");
    popOne();
    assertThat(fifo.observedResourceVersion()).isEqualTo("7");
    fifo.advanceResourceVersion("12");
    assertThat(fifo.observedResourceVersion()).isEqualTo("12");
    assertThat(observed).containsExactly("1", "3", "7", "12");
  }

  @Test
  void pop_returnsFalseOnceClosed() throws Exception {
    fifo.close();

    assertThat(fifo.pop((key, deltas) -> {})).isFalse();
  }

  // --- direct processing ---

  /** Applies deltas to the cache like an informer and records them, with the thread it ran on. */
  private final List<String> processed = new ArrayList<>();

  private final List<Thread> processedOn = new ArrayList<>();

  private void apply(String key, List<Delta<Pod>> deltas) {
    processed.addAll(describe(deltas));
    processedOn.add(Thread.currentThread());
    for (Delta<Pod> delta : deltas) {
      if (delta.type() == DeltaType.DELETED) {
        cache.delete(ObjectKey.parse(key));
      } else {
        cache.upsert(delta.object());
      }
    }
  }

  private final DeltaFifo<Pod> direct =
      new DeltaFifo<>(cache, syncedCalls::incrementAndGet, observed::add, this::apply);

  @Test
  void direct_watchChangeWithNothingQueued_isProcessedAtOnceOnTheProducersThread() {
    direct.replace(List.of(), "1");

    direct.add(pod("a", "2"));
    direct.update(pod("a", "3"));
    assertThat(direct.delete(pod("a", "4"))).isTrue();

    assertThat(processed).containsExactly("ADDED:2", "UPDATED:3", "DELETED:4");
    assertThat(processedOn).containsOnly(Thread.currentThread());
    assertThat(direct.queuedKeys()).isEmpty();
    assertThat(cache.listKeys()).isEmpty();
    assertThat(direct.observedResourceVersion()).isEqualTo("4");
    assertThat(observed).containsExactly("1", "2", "3", "4");
  }

  @Test
  void direct_beforeTheFirstReplace_changesAreQueued() {
    direct.add(pod("a", "2"));

    assertThat(processed).isEmpty();
    assertThat(direct.queuedKeys()).containsExactly("default/a");
  }

  @Test
  void direct_whileKeysAreQueued_changesQueueBehindThem_inArrivalOrder() throws Exception {
    direct.replace(List.of(pod("listed", "5")), "5");

    direct.update(pod("a", "6"));
    direct.update(pod("listed", "7"));

    assertThat(processed).isEmpty();
    assertThat(direct.queuedKeys()).containsExactly("default/listed", "default/a");
    assertThat(direct.observedResourceVersion()).isNull();
    direct.pop(this::apply);
    direct.pop(this::apply);
    assertThat(processed).containsExactly("REPLACED:5", "UPDATED:7", "UPDATED:6");
    assertThat(direct.observedResourceVersion()).isEqualTo("7");

    direct.update(pod("a", "8")); // nothing queued any more: direct again
    assertThat(processed).endsWith("UPDATED:8");
    assertThat(direct.queuedKeys()).isEmpty();
    assertThat(direct.observedResourceVersion()).isEqualTo("8");
  }

  @Test
  void direct_deleteOfAnUnknownKey_isIgnored_andResyncIsAlwaysQueued() {
    direct.replace(List.of(), "1");
    cache.upsert(pod("idle", "1"));

    assertThat(direct.delete(pod("ghost", "2"))).isFalse();
    direct.resync();

    assertThat(processed).isEmpty();
    assertThat(describe(direct.deltas("default/idle"))).containsExactly("SYNC:1");
  }

  @Test
  void direct_afterClose_nothingIsProcessed() {
    direct.replace(List.of(), "1");
    direct.close();

    direct.add(pod("a", "2"));

    assertThat(processed).isEmpty();
  }

  @Test
  void direct_aFailingProcessor_dropsTheChange_andTheNextOneStillGoesDirect() {
    AtomicInteger calls = new AtomicInteger();
    DeltaFifo<Pod> failing =
        new DeltaFifo<>(
            cache,
            () -> {},
            rv -> {},
            (key, deltas) -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("boom");
              }
              cache.upsert(deltas.get(0).object());
            });
    failing.replace(List.of(), "1");

    failing.add(pod("a", "2"));
    failing.add(pod("b", "3"));

    assertThat(calls).hasValue(2);
    assertThat(cache.listKeys()).containsExactly("default/b");
    assertThat(failing.queuedKeys()).isEmpty();
    assertThat(failing.observedResourceVersion()).isEqualTo("3");
  }

  /**
   * A watch producer, a popping consumer and a resync timer race over 200k changes on 64 keys: the
   * processor never runs twice at once, and each key's changes are processed exactly once, in the
   * order produced, whichever thread processed them.
   */
  @Test
  void direct_racingAConsumerAndResyncs_processesEveryChangeOnce_inOrder_oneAtATime()
      throws Exception {
    int keys = 64;
    int changes = 200_000;
    AtomicInteger busy = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger outOfOrder = new AtomicInteger();
    AtomicInteger directCalls = new AtomicInteger();
    long[] lastVersion = new long[keys];
    int[] seen = new int[keys];
    Thread producerThread = Thread.currentThread();
    DeltaFifo.Processor<Pod> checking =
        (key, deltas) -> {
          if (busy.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
          }
          if (Thread.currentThread() == producerThread) {
            directCalls.incrementAndGet();
          }
          for (Delta<Pod> delta : deltas) {
            cache.upsert(delta.object());
            if (delta.type() == DeltaType.SYNC) {
              continue;
            }
            int k = Integer.parseInt(delta.object().getMetadata().getName().substring(1));
            long rv = Long.parseLong(delta.object().getMetadata().getResourceVersion());
            if (rv <= lastVersion[k]) {
              outOfOrder.incrementAndGet();
            }
            lastVersion[k] = rv;
            seen[k]++;
          }
          busy.decrementAndGet();
        };
    DeltaFifo<Pod> raced = new DeltaFifo<>(cache, () -> {}, rv -> {}, checking);
    raced.replace(List.of(), "1");
    AtomicBoolean stop = new AtomicBoolean();
    Thread consumer =
        new Thread(
            () -> {
              try {
                while (raced.pop(checking)) {
                  // keep popping
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    AtomicInteger progress = new AtomicInteger();
    Thread resyncer =
        new Thread(
            () -> {
              // A resync (64 SYNC deltas through the consumer) after every 1000 changes.
              int next = 0;
              while (!stop.get()) {
                if (progress.get() >= next) {
                  raced.resync();
                  next += 1_000;
                } else {
                  Thread.yield();
                }
              }
            });
    consumer.start();
    resyncer.start();
    int[] produced = new int[keys];
    for (int i = 0; i < changes; i++) {
      int k = i % keys;
      raced.update(pod("p" + k, String.valueOf(i + 2)));
      produced[k]++;
      progress.set(i);
    }
    stop.set(true);
    resyncer.join(Awaits.DEADLINE.toMillis());
    Awaits.until(() -> raced.queuedKeys().isEmpty(), "FIFO drained");
    raced.close();
    consumer.join(Awaits.DEADLINE.toMillis());

    assertThat(consumer.isAlive()).isFalse();
    assertThat(overlaps).hasValue(0);
    assertThat(outOfOrder).hasValue(0);
    assertThat(seen).isEqualTo(produced);
    assertThat(raced.observedResourceVersion()).isEqualTo(String.valueOf(changes + 1));
    assertThat(directCalls.get()).isPositive();
  }
}
