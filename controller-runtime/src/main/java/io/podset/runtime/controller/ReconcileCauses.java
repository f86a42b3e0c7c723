package io.podset.runtime.controller;

import io.podset.runtime.reconcile.Request;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why each queued request will be reconciled: the events coalesced into it since its last
 * reconcile, or a retry or requeue. Bounded per request: the first few causes are kept, the rest
 * counted.
 */
final class ReconcileCauses {

  private static final int KEPT = 3;

  private final ConcurrentHashMap<Request, Cause> causes = new ConcurrentHashMap<>();

  void note(Request request, String cause) {
    causes.compute(
        request, (r, existing) -> (existing == null ? new Cause() : existing).add(cause));
  }

  /** The causes noted since the last call for {@code request}, as one line; "unknown" if none. */
  String take(Request request) {
    Cause cause = causes.remove(request);
    return cause == null ? "unknown" : cause.toString();
  }

  /** Immutable-after-publication is not needed: compute() serializes access per request. */
  private static final class Cause {
    private final StringBuilder text = new StringBuilder();
    private int kept;
    private int dropped;

    Cause add(String cause) {
      if (kept < KEPT) {
        if (kept > 0) {
          text.append(", ");
        }
        text.append(cause);
        kept++;
      } else {
        dropped++;
      }
      return this;
    }

    @Override
    public String toString() {
      return dropped == 0 ? text.toString() : text + " (+" + dropped + " more)";
    }
  }
}
