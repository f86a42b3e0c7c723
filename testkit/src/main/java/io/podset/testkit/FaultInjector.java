package io.podset.testkit;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Fault injection into a running {@link FakeApiServer} or {@link FaultProxy}: rules added and
 * removed at any time, each counting the faults it injected. Rules are checked newest first; the
 * first one that fires on a request decides its fault (event faults apply to watch streams
 * alongside).
 *
 * <p>Thread-safe.
 */
public interface FaultInjector {

  /** A rule in place. */
  interface Handle extends Registration {
    /** The rule. */
    FaultRule rule();

    /** How many times it injected its fault (for event faults: events held back or delayed). */
    long injected();
  }

  /** Adds a rule; it applies to requests from now on (event faults also to open watches). */
  Handle add(FaultRule rule);

  /** The rules in place, newest first. */
  List<Handle> rules();

  /** Removes every rule; events held back are released. */
  void clear();

  /** The number of faults injected since the server started, over all rules. */
  long injected();

  /**
   * Ends the open watches of {@code resource} (plural, any group; null for all), as a connection
   * loss would; clients watch again from their last resourceVersion.
   *
   * @return how many watches were ended
   */
  int dropWatches(@Nullable String resource);

  /**
   * Ends the open watches of {@code resource} (plural, any group; null for all) opened by clients
   * whose {@code User-Agent} contains {@code userAgentContaining} (null for any): a connection loss
   * of one client among several.
   *
   * @return how many watches were ended
   */
  int dropWatches(@Nullable String resource, @Nullable String userAgentContaining);
}
