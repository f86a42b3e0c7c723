package io.podset.benchmarks.workqueue;

/** Keys shaped like object keys, made before measuring so they are not part of any figure. */
final class Keys {

  private Keys() {}

  /** {@code count} distinct keys {@code default/<prefix>-<i>}. */
  static String[] of(String prefix, int count) {
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = "default/" + prefix + "-" + i;
    }
    return keys;
  }
}
