package io.podset.testkit;

/** Something added to a running server (a rule, a fate assignment); removing it undoes it. */
@FunctionalInterface
public interface Registration {

  /** Removes the registration; a no-op when it was removed already. */
  void remove();
}
