package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class EntryTableTest {

  /** A key whose hash code is chosen, to force collisions. */
  private record Key(int id, int hash) {
    @Override
    public int hashCode() {
      return hash;
    }
  }

  private final EntryTable<Key> table = new EntryTable<>();

  private QueueEntry<Key> insert(Key key) {
    return table.insert(key, EntryTable.spread(key));
  }

  private QueueEntry<Key> find(Key key) {
    return table.find(key, EntryTable.spread(key));
  }

  @Test
  void find_afterInsertAndGrowth_returnsEachKeysOwnEntry() {
    List<QueueEntry<Key>> entries = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      entries.add(insert(new Key(i, i % 7)));
    }

    assertThat(table.size()).isEqualTo(1_000);
    for (int i = 0; i < 1_000; i++) {
      assertThat(find(new Key(i, i % 7))).isSameAs(entries.get(i));
    }
    assertThat(find(new Key(1_000, 1_000 % 7))).isNull();
  }

  @Test
  void remove_headMiddleAndTailOfAChain_keepsTheOthers() {
    QueueEntry<Key> a = insert(new Key(1, 5));
    QueueEntry<Key> b = insert(new Key(2, 5));
    QueueEntry<Key> c = insert(new Key(3, 5));
    QueueEntry<Key> d = insert(new Key(4, 5));

    table.remove(b);
    table.remove(d);
    table.remove(a);

    assertThat(find(new Key(1, 5))).isNull();
    assertThat(find(new Key(2, 5))).isNull();
    assertThat(find(new Key(3, 5))).isSameAs(c);
    assertThat(find(new Key(4, 5))).isNull();
    assertThat(table.size()).isEqualTo(1);
  }

  @Test
  void remove_ofAnEntryNotInTheTable_throws() {
    QueueEntry<Key> entry = insert(new Key(1, 1));
    table.remove(entry);

    assertThatThrownBy(() -> table.remove(entry))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not in the table");
  }

  /** Hands the entry's key out and finishes it lock-free: the entry is idle. */
  private static void makeIdle(QueueEntry<Key> entry) {
    entry.handOut(false);
    assertThat(entry.finishFast(entry.key())).isTrue();
    assertThat(entry.isIdle()).isTrue();
  }

  @Test
  void insert_whenFullOfIdleEntries_evictsAndReusesThemInsteadOfGrowing() {
    List<QueueEntry<Key>> idle = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      idle.add(insert(new Key(i, i)));
    }
    idle.forEach(EntryTableTest::makeIdle);

    QueueEntry<Key> fresh = insert(new Key(100, 100));

    assertThat(table.capacity()).isEqualTo(16);
    assertThat(table.size()).isEqualTo(1);
    assertThat(idle).anySatisfy(entry -> assertThat(entry).isSameAs(fresh));
    assertThat(fresh.key()).isEqualTo(new Key(100, 100));
    assertThat(fresh.isDirty()).isTrue();
    assertThat(find(new Key(100, 100))).isSameAs(fresh);
    for (int i = 0; i < 12; i++) {
      assertThat(find(new Key(i, i))).isNull();
    }
  }

  @Test
  void insert_whenFullOfBusyEntries_grows() {
    for (int i = 0; i < 12; i++) {
      insert(new Key(i, i)).handOut(false);
    }

    insert(new Key(100, 100));

    assertThat(table.capacity()).isEqualTo(32);
    assertThat(table.size()).isEqualTo(13);
    for (int i = 0; i < 12; i++) {
      assertThat(find(new Key(i, i))).isNotNull();
    }
  }

  @Test
  void finishFast_onAnEntryReusedForAnotherKey_failsForTheOldKey() {
    Key old = new Key(1, 1);
    QueueEntry<Key> entry = insert(old);
    makeIdle(entry);
    for (int i = 2; i < 13; i++) {
      insert(new Key(i, i)).handOut(false);
    }
    Key other = new Key(99, 1);
    QueueEntry<Key> reused = insert(other);

    assertThat(reused).isSameAs(entry);
    assertThat(find(old)).isNull();
    assertThat(table.findLockFree(old, EntryTable.spread(old))).isNull();
    assertThat(table.findLockFree(other, EntryTable.spread(other))).isSameAs(entry);
    entry.handOut(false);
    assertThat(entry.finishFast(old)).isFalse();
    assertThat(entry.finishFast(other)).isTrue();
  }

  @Test
  void forEach_visitsEveryEntryOnce() {
    for (int i = 0; i < 100; i++) {
      insert(new Key(i, i % 3));
    }
    List<Integer> seen = new ArrayList<>();

    table.forEach(entry -> seen.add(entry.key().id()));

    assertThat(seen).hasSize(100).doesNotHaveDuplicates();
  }

  /**
   * Readers look up keys without the lock while one writer inserts, removes and grows the table
   * under it. A lock-free lookup may miss a present key during a growth, but it always ends and
   * never returns another key's entry; keys inserted before the readers started and never removed
   * are found once the writer is done.
   */
  @Test
  void find_withoutTheLock_whileTheWriterGrowsAndShrinksChains_endsAndNeverReturnsAnotherKey()
      throws InterruptedException {
    int stable = 64;
    List<Key> stableKeys = new ArrayList<>();
    for (int i = 0; i < stable; i++) {
      Key key = new Key(i, i % 4);
      stableKeys.add(key);
      insert(key);
    }
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<String> violation = new AtomicReference<>();
    AtomicLong lookups = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      long seed = r;
      readers.add(
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                long mine = 0;
                while (writing.get()) {
                  int id = random.nextInt(stable + 5_000);
                  Key key = new Key(id, id % 32 == 0 ? 0 : id);
                  QueueEntry<Key> found = table.findLockFree(key, EntryTable.spread(key));
                  if (found != null && !found.key().equals(key)) {
                    violation.compareAndSet(null, "looked up " + key + ", got " + found.key());
                  }
                  mine++;
                }
                lookups.addAndGet(mine);
              }));
    }
    readers.forEach(Thread::start);
    Object lock = new Object();
    for (int round = 0; round < 20; round++) {
      List<QueueEntry<Key>> added = new ArrayList<>();
      synchronized (lock) {
        for (int i = stable; i < stable + 5_000; i++) {
          added.add(insert(new Key(i, i % 4 == 0 ? i : i % 4)));
        }
      }
      synchronized (lock) {
        added.forEach(table::remove);
      }
    }
    writing.set(false);
    for (Thread reader : readers) {
      reader.join();
    }

    assertThat(violation.get()).isNull();
    assertThat(lookups.get()).isPositive();
    assertThat(table.size()).isEqualTo(stable);
    for (Key key : stableKeys) {
      assertThat(find(key)).isNotNull();
    }
  }
}
