package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WaitingKeysTest {

  /** A key whose hash code is chosen, to force collisions. */
  private record Key(int id, int hash) {
    @Override
    public int hashCode() {
      return hash;
    }
  }

  private final WaitingKeys<String> waiting = new WaitingKeys<>();

  private List<String> pollAllDue(long now) {
    List<String> due = new ArrayList<>();
    for (String key = waiting.pollDue(now); key != null; key = waiting.pollDue(now)) {
      due.add(key);
    }
    return due;
  }

  @Test
  void pollDue_returnsDueKeysInDeadlineOrder_andLeavesTheOthers() {
    waiting.offer("c", 30);
    waiting.offer("a", 10);
    waiting.offer("d", 40);
    waiting.offer("b", 20);

    assertThat(pollAllDue(25)).containsExactly("a", "b");
    assertThat(waiting.size()).isEqualTo(2);
    assertThat(waiting.earliestDeadline()).isEqualTo(30);
    assertThat(pollAllDue(100)).containsExactly("c", "d");
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  void offer_earlierDeadline_movesTheKey_laterOrEqualIsIgnored() {
    waiting.offer("a", 10);
    waiting.offer("b", 20);

    assertThat(waiting.offer("b", 5)).isTrue();
    assertThat(waiting.offer("a", 10)).isFalse();
    assertThat(waiting.offer("a", 50)).isFalse();

    assertThat(waiting.size()).isEqualTo(2);
    assertThat(waiting.earliestDeadline()).isEqualTo(5);
    assertThat(pollAllDue(9)).containsExactly("b");
    assertThat(pollAllDue(10)).containsExactly("a");
  }

  @Test
  void deadlines_areComparedBySubtraction_acrossTheOverflow() {
    waiting.offer("late", Long.MIN_VALUE + 10);
    waiting.offer("early", Long.MAX_VALUE - 10);

    assertThat(pollAllDue(Long.MIN_VALUE + 10)).containsExactly("early", "late");
  }

  @Test
  void clear_forgetsEveryKey() {
    waiting.offer("a", 10);
    waiting.offer("b", 20);

    waiting.clear();

    assertThat(waiting.isEmpty()).isTrue();
    assertThat(pollAllDue(100)).isEmpty();
    assertThat(waiting.offer("a", 30)).isTrue();
  }

  /**
   * Random offers and polls over colliding keys, checked against a map: each poll returns a key
   * whose deadline is the earliest and due, nothing is returned twice or lost.
   */
  @Test
  void randomOperations_matchAMapOfEarliestDeadlines() {
    WaitingKeys<Key> keys = new WaitingKeys<>();
    Map<Key, Long> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(11);
    long now = 0;
    for (int op = 0; op < 200_000; op++) {
      if (random.nextInt(3) > 0) {
        int id = random.nextInt(500);
        Key key = new Key(id, id % 17);
        long deadline = now + random.nextInt(1_000);
        Long current = model.get(key);
        boolean expected = current == null || deadline < current;
        assertThat(keys.offer(key, deadline)).isEqualTo(expected);
        if (expected) {
          model.put(key, deadline);
        }
      } else {
        now += random.nextInt(50);
        long min = model.values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
        Key polled = keys.pollDue(now);
        if (min > now) {
          assertThat(polled).isNull();
        } else {
          assertThat(polled).isNotNull();
          assertThat(model.remove(polled)).isEqualTo(min);
        }
      }
      assertThat(keys.size()).isEqualTo(model.size());
    }
  }
}
