package io.podset.operator.reliability;

import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * When the create of a pod made for a deleted PodSet reached the server, against that PodSet's
 * deletion, from the request journal (which names each create's object, a generated name included).
 * A create that arrived before the deletion was answered was in flight across it: the server
 * committed it after the deletion (here: held by an injected latency), and no read the operator
 * could have made first would have shown the deletion. A create that arrived after the deletion was
 * answered was sent from a stale view: a confirming read could have stopped it.
 */
final class DeletionRace {

  /** How the create relates to the deletion. */
  enum Kind {
    /** Arrived before the deletion was answered: in flight across it. */
    IN_FLIGHT,
    /** Arrived after the deletion was answered: sent from a stale view. */
    STALE_VIEW,
    /** The create or the deletion is not in the journal (evicted, or made by someone else). */
    UNKNOWN
  }

  /**
   * @param kind how the create relates to the deletion
   * @param line the create, the deletion and the PodSet's GETs from 3 s before the deletion to 2 s
   *     after, each at its arrival relative to the deletion's, for the report
   */
  record Finding(Kind kind, String line) {}

  private DeletionRace() {}

  /**
   * The create of pod {@code podKey} against the deletion of PodSet {@code podSetKey} that it
   * followed (the latest one answered before the create was: PodSets are deleted and created again
   * under the same name).
   */
  static Finding of(RequestJournal journal, String podSetKey, String podKey) {
    String namespace = podSetKey.substring(0, podSetKey.indexOf('/'));
    String podSet = podSetKey.substring(podSetKey.indexOf('/') + 1);
    String pod = podKey.substring(podKey.indexOf('/') + 1);
    String head = "AROUND DELETION of " + podSetKey + " (pod " + pod + "):";
    Optional<RequestRecord> create =
        journal
            .records(RequestMatcher.verb("create").resource("pods").namespace(namespace).name(pod))
            .stream()
            .filter(r -> r.status() / 100 == 2)
            .findFirst();
    if (create.isEmpty()) {
      return new Finding(Kind.UNKNOWN, head + " its create is not in the journal");
    }
    List<RequestRecord> podSetRequests =
        journal.records(
            RequestMatcher.verb("get", "delete")
                .resource("podsets")
                .namespace(namespace)
                .name(podSet));
    Instant created = answered(create.get());
    Optional<RequestRecord> deletion =
        podSetRequests.stream()
            .filter(r -> r.verb().equals("delete") && r.status() / 100 == 2)
            .filter(r -> !answered(r).isAfter(created))
            .max(Comparator.comparing(DeletionRace::answered));
    if (deletion.isEmpty()) {
      return new Finding(Kind.UNKNOWN, head + " no deletion answered before its create");
    }
    Instant deleted = deletion.get().time();
    Kind kind =
        create.get().time().isBefore(answered(deletion.get())) ? Kind.IN_FLIGHT : Kind.STALE_VIEW;
    StringBuilder line = new StringBuilder(head).append(' ').append(kind).append(';');
    line.append(describe(deleted, deletion.get()))
        .append(';')
        .append(describe(deleted, create.get()));
    line.append("; GETs:");
    for (RequestRecord r : podSetRequests) {
      long ms = Duration.between(deleted, r.time()).toMillis();
      if (r.verb().equals("get") && ms >= -3000 && ms <= 2000) {
        line.append(String.format(" %+d ms %d", ms, r.status()));
      }
    }
    return new Finding(kind, line.toString());
  }

  private static String describe(Instant deleted, RequestRecord r) {
    return String.format(
        " %s arrived %+d ms, answered %d after %d ms%s",
        r.verb(),
        Duration.between(deleted, r.time()).toMillis(),
        r.status(),
        r.duration().toMillis(),
        r.fault() == null ? "" : " [" + r.fault() + "]");
  }

  private static Instant answered(RequestRecord r) {
    return r.time().plus(r.duration());
  }
}
