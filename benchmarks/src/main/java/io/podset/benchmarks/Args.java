package io.podset.benchmarks;

import java.util.Objects;

/**
 * The benchmarks' numeric command-line arguments, checked: a bad value is reported with the
 * argument's name (and where {@code run.sh} sets it), not as a bare {@code NumberFormatException}.
 */
public final class Args {

  private Args() {}

  /**
   * {@code value} as an integer of at least 1 (surrounding blanks allowed).
   *
   * @param name the argument as the message should name it, such as {@code "N (a CLUSTER_SIZES
   *     entry)"}
   * @throws IllegalArgumentException naming {@code name} and {@code value} if it is not one
   */
  public static int positive(String name, String value) {
    return atLeast(name, value, 1, "a positive integer");
  }

  /**
   * {@code value} as an integer of at least 0 (surrounding blanks allowed).
   *
   * @throws IllegalArgumentException naming {@code name} and {@code value} if it is not one
   */
  public static int notNegative(String name, String value) {
    return atLeast(name, value, 0, "an integer of at least 0");
  }

  private static int atLeast(String name, String value, int least, String what) {
    Objects.requireNonNull(name, "name");
    if (value != null) {
      try {
        int parsed = Integer.parseInt(value.strip());
        if (parsed >= least) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below, with the argument's name
      }
    }
    throw new IllegalArgumentException(name + " must be " + what + ", got: \"" + value + "\"");
  }
}
