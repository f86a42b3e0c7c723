package io.podset.runtime.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.podset.runtime.event.Event;
import io.podset.runtime.reconcile.Request;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventHandlersTest {

  private static Pod podOwnedBy(String apiVersion, String kind, String owner, boolean controller) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("p")
        .withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withName(owner)
                .withUid("u-" + owner)
                .withController(controller)
                .build())
        .endMetadata()
        .build();
  }

  @Test
  void forObject_enqueuesTheObject() {
    Pod pod = podOwnedBy("apps/v1", "ReplicaSet", "rs", true);
    assertThat(EventHandlers.<Pod>forObject().requestsFor(new Event.Added<>(pod)))
        .containsExactly(new Request("ns", "p"));
  }

  @Test
  void forControllerOwner_enqueuesMatchingControllerOwner() {
    EventHandler<Pod> handler = EventHandlers.forControllerOwner(ReplicaSet.class);
    assertThat(
            handler.requestsFor(new Event.Added<>(podOwnedBy("apps/v1", "ReplicaSet", "rs", true))))
        .containsExactly(new Request("ns", "rs"));
  }

  @Test
  void forControllerOwner_ignoresOtherKindsGroupsAndNonControllers() {
    EventHandler<Pod> handler = EventHandlers.forControllerOwner("apps", "ReplicaSet", true);
    assertThat(
            handler.requestsFor(new Event.Added<>(podOwnedBy("apps/v1", "StatefulSet", "s", true))))
        .isEmpty();
    assertThat(
            handler.requestsFor(new Event.Added<>(podOwnedBy("other/v1", "ReplicaSet", "r", true))))
        .isEmpty();
    assertThat(
            handler.requestsFor(new Event.Added<>(podOwnedBy("apps/v1", "ReplicaSet", "r", false))))
        .isEmpty();
  }

  @Test
  void forControllerOwner_onOwnerChange_enqueuesOldAndNewOwner() {
    EventHandler<Pod> handler = EventHandlers.forControllerOwner("apps", "ReplicaSet", true);
    Event<Pod> update =
        new Event.Updated<>(
            podOwnedBy("apps/v1", "ReplicaSet", "old", true),
            podOwnedBy("apps/v1", "ReplicaSet", "new", true));

    assertThat(handler.requestsFor(update))
        .containsExactlyInAnyOrder(new Request("ns", "old"), new Request("ns", "new"));
  }

  @Test
  void forControllerOwner_clusterScopedOwner_hasNoNamespace() {
    EventHandler<Pod> handler = EventHandlers.forControllerOwner(Namespace.class);
    assertThat(
            handler.requestsFor(
                new Event.Deleted<>(podOwnedBy("v1", "Namespace", "n", true), true)))
        .containsExactly(new Request(null, "n"));
  }

  @Test
  void fromMapper_mapsOldAndNewStates() {
    EventHandler<ConfigMap> handler =
        EventHandlers.fromMapper(
            cm -> List.of(new Request("ns", cm.getMetadata().getName() + "-owner")));
    ConfigMap a = new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().build();
    ConfigMap b = new ConfigMapBuilder().withNewMetadata().withName("b").endMetadata().build();

    assertThat(handler.requestsFor(new Event.Updated<>(a, b)))
        .containsExactlyInAnyOrder(new Request("ns", "a-owner"), new Request("ns", "b-owner"));
  }
}
