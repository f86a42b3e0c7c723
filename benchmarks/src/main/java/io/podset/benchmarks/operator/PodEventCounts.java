package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.operator.PodSetController;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The pod watch events of a {@link ClusterConverge} run, as a contender's pod informer receives
 * them: added, updated, deleted, and the updates that change none of the fields our operator's pod
 * informer keeps ({@link PodSetController#podTransform()}) other than the resourceVersion, which
 * still cost our operator a decode, a projection and a reconcile each. Thread-safe.
 */
final class PodEventCounts {

  private static final UnaryOperator<HasMetadata> OPERATOR_VIEW = PodSetController.podTransform();

  private final AtomicLong added = new AtomicLong();
  private final AtomicLong updated = new AtomicLong();
  private final AtomicLong unchangedForOperator = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();

  /** Counts so far. */
  record Counts(long added, long updated, long unchangedForOperator, long deleted) {
    Counts since(Counts start) {
      return new Counts(
          added - start.added,
          updated - start.updated,
          unchangedForOperator - start.unchangedForOperator,
          deleted - start.deleted);
    }

    @Override
    public String toString() {
      return String.format(
          "pod events: %d added, %d updated (%d of them unchanged in our operator's projection"
              + " but for the resourceVersion), %d deleted",
          added, updated, unchangedForOperator, deleted);
    }
  }

  void added() {
    added.incrementAndGet();
  }

  void updated(Pod before, Pod after) {
    updated.incrementAndGet();
    if (sameForOperator(before, after)) {
      unchangedForOperator.incrementAndGet();
    }
  }

  void deleted() {
    deleted.incrementAndGet();
  }

  Counts now() {
    return new Counts(added.get(), updated.get(), unchangedForOperator.get(), deleted.get());
  }

  /** Whether the operator's projections of the two differ only in the resourceVersion. */
  static boolean sameForOperator(Pod before, Pod after) {
    HasMetadata a = OPERATOR_VIEW.apply(before);
    HasMetadata b = OPERATOR_VIEW.apply(after);
    // The projections are new objects: setting the version on them changes no cached pod.
    a.getMetadata().setResourceVersion(null);
    b.getMetadata().setResourceVersion(null);
    return Objects.equals(a, b);
  }
}
