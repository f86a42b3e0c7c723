package io.podset.runtime.expectations;

/**
 * Orders resourceVersions. Kubernetes documents them as opaque, but every API server backed by etcd
 * (and the testkit) issues them from one increasing integer sequence; values that are not integers
 * are treated as incomparable, so callers fall back to events or timeouts.
 */
public final class ResourceVersions {

  private ResourceVersions() {}

  /**
   * True when {@code observed} is known to be at or after {@code written}; false when either is
   * missing or not an integer.
   */
  public static boolean atLeast(String observed, String written) {
    long o = parse(observed);
    long w = parse(written);
    return o >= 0 && w >= 0 && o >= w;
  }

  /** The later of two resourceVersions, preferring a comparable value. */
  static String max(String a, String b) {
    long pa = parse(a);
    long pb = parse(b);
    if (pa < 0) {
      return pb < 0 ? a : b;
    }
    return pb > pa ? b : a;
  }

  /** The integer value, or -1 when absent or not a non-negative integer. */
  static long parse(String resourceVersion) {
    if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.length() > 19) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < resourceVersion.length(); i++) {
      char c = resourceVersion.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
      if (value < 0) {
        return -1;
      }
    }
    return value;
  }
}
