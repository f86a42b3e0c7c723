package io.podset.testkit.internal.http;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What inner request filters learn about the request being served, for the journal, the outermost
 * filter, to record: the faults injected into it and the user it was served as. The pipeline runs a
 * request's filters on one thread, so the notes are kept per thread, opened by the journal around
 * the rest of the pipeline; a note made with none open (a server without a journal) is dropped.
 */
public final class RequestNotes {

  private static final ThreadLocal<@Nullable RequestNotes> CURRENT = new ThreadLocal<>();

  private final @Nullable RequestNotes outer;
  // Made at the first fault: most requests get none.
  private @Nullable List<String> faults;
  private @Nullable String user;

  private RequestNotes(@Nullable RequestNotes outer) {
    this.outer = outer;
  }

  /** Opens the notes of a request on this thread; {@link #close} them when it is answered. */
  public static RequestNotes open() {
    RequestNotes notes = new RequestNotes(CURRENT.get());
    CURRENT.set(notes);
    return notes;
  }

  /** Ends these notes; the thread's previous ones, if any, are current again. */
  public void close() {
    if (outer == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(outer);
    }
  }

  /** A fault was injected into the current request. */
  public static void fault(String description) {
    RequestNotes notes = CURRENT.get();
    if (notes != null) {
      List<String> faults = notes.faults;
      if (faults == null) {
        faults = new ArrayList<>(1);
        notes.faults = faults;
      }
      faults.add(description);
    }
  }

  /** The current request is served as {@code user} (after authentication and impersonation). */
  public static void servedAs(String user) {
    RequestNotes notes = CURRENT.get();
    if (notes != null) {
      notes.user = user;
    }
  }

  /** The faults noted, in the order they were injected. */
  public List<String> faults() {
    List<String> noted = faults;
    return noted == null ? List.of() : List.copyOf(noted);
  }

  /** The user noted, or null when no filter authenticated the request. */
  public @Nullable String user() {
    return user;
  }
}
