package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.cache.MutableIndexer;
import io.podset.runtime.cache.ObjectKey;
import java.util.ArrayList;
import java.util.List;
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
}
