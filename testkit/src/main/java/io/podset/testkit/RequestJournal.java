package io.podset.testkit;

import java.util.List;

/**
 * The record of the requests a {@link FakeApiServer} answered (or a {@link FaultProxy} passed on),
 * oldest first, with helpers to assert on them. Requests made by the server itself (initial
 * namespaces, {@code installCrds}, the {@link SimulatedKubelet}) are not requests and are not
 * recorded. The newest 100,000 records are kept.
 *
 * <p>Thread-safe.
 */
public interface RequestJournal {

  /** A position in the journal: records after it are "since" the mark. */
  record Mark(long sequence) {}

  /** The current end of the journal. */
  Mark mark();

  /** Every kept record. */
  List<RequestRecord> records();

  /** The kept records that match. */
  List<RequestRecord> records(RequestMatcher matcher);

  /** How many kept records match. */
  int count(RequestMatcher matcher);

  /** Forgets every record (marks taken before stay valid). */
  void clear();

  /**
   * Asserts that exactly {@code expected} records match.
   *
   * @throws AssertionError listing the matching records (or, when none match, the last ones)
   */
  void assertCount(RequestMatcher matcher, int expected);

  /**
   * Asserts that no record matches, e.g. {@code assertNone(RequestMatcher.writes().since(mark))}.
   *
   * @throws AssertionError listing the matching records
   */
  void assertNone(RequestMatcher matcher);
}
