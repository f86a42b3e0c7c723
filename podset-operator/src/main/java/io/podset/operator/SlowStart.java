package io.podset.operator;

import java.util.ArrayList;
import java.util.List;

/**
 * Slow-start batching, as the ReplicaSet controller creates pods: batches of 1, 2, 4, 8, ... until
 * {@code total} is reached. The caller stops at the first batch with a failure, so a PodSet whose
 * pods are all refused (a quota, an invalid image) costs one request, not {@code total}.
 */
final class SlowStart {

  private SlowStart() {}

  /**
   * The batch sizes for {@code total} items: 1, 2, 4, ..., the last one holding the remainder.
   *
   * @throws IllegalArgumentException if {@code total} is negative
   */
  static List<Integer> batches(int total) {
    if (total < 0) {
      throw new IllegalArgumentException("total must not be negative, got " + total);
    }
    List<Integer> sizes = new ArrayList<>();
    int remaining = total;
    int next = 1;
    while (remaining > 0) {
      int size = Math.min(next, remaining);
      sizes.add(size);
      remaining -= size;
      next = next > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE : next * 2;
    }
    return List.copyOf(sizes);
  }
}
