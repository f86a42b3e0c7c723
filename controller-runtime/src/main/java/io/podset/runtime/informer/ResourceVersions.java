package io.podset.runtime.informer;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Ordering of resourceVersions.
 *
 * <p>Kubernetes calls resourceVersions opaque, but every etcd-backed API server (and the testkit)
 * issues them as increasing decimal integers, which is what lets a controller wait until its cache
 * has caught up with its own writes. These helpers compare them as unsigned decimal integers of any
 * length.
 */
public final class ResourceVersions {

  private ResourceVersions() {}

  /** Whether {@code resourceVersion} is a non-empty string of decimal digits. */
  public static boolean isNumeric(@Nullable String resourceVersion) {
    if (resourceVersion == null || resourceVersion.isEmpty()) {
      return false;
    }
    for (int i = 0; i < resourceVersion.length(); i++) {
      char c = resourceVersion.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * True when {@code observed} is known to be at or after {@code written}: both numeric and {@code
   * observed} not older; false when either is missing or not numeric, so callers fall back to
   * events or timeouts.
   */
  public static boolean atLeast(@Nullable String observed, @Nullable String written) {
    return observed != null
        && written != null
        && isNumeric(observed)
        && isNumeric(written)
        && compare(observed, written) >= 0;
  }

  /**
   * Compares two numeric resourceVersions.
   *
   * @return negative, zero or positive as {@code a} is older than, equal to or newer than {@code b}
   * @throws IllegalArgumentException if either is not {@linkplain #isNumeric numeric}
   */
  public static int compare(String a, String b) {
    requireNumeric(a, "a");
    requireNumeric(b, "b");
    String x = stripLeadingZeros(a);
    String y = stripLeadingZeros(b);
    if (x.length() != y.length()) {
      return Integer.compare(x.length(), y.length());
    }
    return x.compareTo(y);
  }

  /**
   * The newer of two resourceVersions; when either is not numeric (or null), {@code candidate} wins
   * unless it is null, since without an order the latest one seen is the best guess.
   */
  static @Nullable String newer(@Nullable String current, @Nullable String candidate) {
    if (candidate == null || candidate.isEmpty()) {
      return current;
    }
    if (current == null || !isNumeric(current) || !isNumeric(candidate)) {
      return candidate;
    }
    return compare(candidate, current) > 0 ? candidate : current;
  }

  private static void requireNumeric(String rv, String name) {
    Objects.requireNonNull(rv, name);
    if (!isNumeric(rv)) {
      throw new IllegalArgumentException(name + " is not a numeric resourceVersion: '" + rv + "'");
    }
  }

  private static String stripLeadingZeros(String digits) {
    int i = 0;
    while (i < digits.length() - 1 && digits.charAt(i) == '0') {
      i++;
    }
    return digits.substring(i);
  }
}
