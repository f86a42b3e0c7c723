package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.event.Event;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultProxy;
import io.podset.testkit.RequestJournal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where the chaos soak runs: the fake API server, or a real control plane behind a {@link
 * FaultProxy}. Either way the operator's requests pass through fault rules and a journal, the
 * driver's do not, and the observer ({@link ClusterHistory}) reads plain HTTP without credentials
 * with a user agent the rules spare.
 */
interface SoakTarget {

  /** What runs the API, for the report. */
  String description();

  /** The driver's client: its requests are never faulted. */
  KubernetesClient admin();

  /** The rules applied to the operator's requests and watches. */
  FaultInjector faults();

  /** The record of the operator's (and the observer's) requests. */
  RequestJournal journal();

  /** Forgets the server's history, or null where that is impossible. */
  Runnable compaction();

  /** The kinds of fault the campaign draws from. */
  List<FaultCampaign.Kind> faultKinds();

  /** The URL the observer reads from. */
  URI observerUrl();

  /**
   * Starts an operator instance whose requests go through the rules.
   *
   * @param election null to run without leader election
   */
  OperatorInstance startOperator(
      String name,
      LeaderElectionConfig election,
      int workers,
      Predicate<? super Event<? extends HasMetadata>> eventFilter);

  /**
   * A resourceVersion that every watch of the observer will show (by an event or a bookmark)
   * shortly, and up to which its history then holds every change made before this call.
   */
  long syncPoint();

  /**
   * Whether the observer's history of a resource may lag for long (a minute) behind its changes
   * unless {@link #syncPoint()} moves it: the server bookmarks watches rarely.
   */
  default boolean historyLagsWithoutSync() {
    return false;
  }

  /** How long after a PodSet's deletion an active pod of it may still be seen. */
  Duration gcGrace();

  /** The namespace of the target's own objects, which the invariants leave out, if any. */
  default Optional<String> uncheckedNamespace() {
    return Optional.empty();
  }

  /** The fake server: faults and journal its own, its garbage collector and simulated kubelet. */
  static SoakTarget fake(FakeApiServer server) {
    return new SoakTarget() {
      @Override
      public String description() {
        return "fake API server";
      }

      @Override
      public KubernetesClient admin() {
        return server.client();
      }

      @Override
      public FaultInjector faults() {
        return server.faults();
      }

      @Override
      public RequestJournal journal() {
        return server.journal();
      }

      @Override
      public Runnable compaction() {
        return server::compactHistory;
      }

      @Override
      public List<FaultCampaign.Kind> faultKinds() {
        return FaultCampaign.FAKE_KINDS;
      }

      @Override
      public URI observerUrl() {
        return server.url();
      }

      @Override
      public OperatorInstance startOperator(
          String name,
          LeaderElectionConfig election,
          int workers,
          Predicate<? super Event<? extends HasMetadata>> eventFilter) {
        return OperatorInstance.start(server, name, election, workers, eventFilter);
      }

      @Override
      public long syncPoint() {
        // Bookmarks every second (the soak's server is built so) move every watch along.
        return server.resourceVersion();
      }

      @Override
      public Duration gcGrace() {
        // The fake's collector deletes dependents in the same commit as their owner.
        return Duration.ofSeconds(2);
      }
    };
  }
}
