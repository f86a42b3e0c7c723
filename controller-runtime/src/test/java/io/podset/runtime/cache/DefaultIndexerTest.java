package io.podset.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DefaultIndexerTest {

  private final MutableIndexer<Pod> indexer = MutableIndexer.create();

  private static Pod pod(String namespace, String name, String ownerUid, boolean controller) {
    PodBuilder builder =
        new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata();
    if (ownerUid != null) {
      builder
          .editMetadata()
          .withOwnerReferences(
              new OwnerReferenceBuilder()
                  .withUid(ownerUid)
                  .withName("owner")
                  .withKind("PodSet")
                  .withApiVersion("app.example.com/v1alpha1")
                  .withController(controller)
                  .build())
          .endMetadata();
    }
    return builder.build();
  }

  @Test
  void upsertGetDelete_byKey() {
    Pod a = pod("ns", "a", null, false);

    assertThat(indexer.upsert(a)).isEmpty();
    assertThat(indexer.getByKey("ns/a")).containsSame(a);
    assertThat(indexer.listKeys()).containsExactly("ns/a");
    assertThat(indexer.delete(ObjectKey.parse("ns/a"))).containsSame(a);
    assertThat(indexer.list()).isEmpty();
  }

  @Test
  void byIndex_followsUpdatesAndDeletes() {
    indexer.addIndexers(
        Map.of(
            Indexers.NAMESPACE,
            Indexers.byNamespace(),
            Indexers.CONTROLLER_UID,
            Indexers.byControllerUid()));
    indexer.upsert(pod("ns1", "a", "owner-1", true));
    indexer.upsert(pod("ns1", "b", "owner-2", false));
    indexer.upsert(pod("ns2", "c", "owner-1", true));

    assertThat(indexer.indexKeys(Indexers.NAMESPACE, "ns1"))
        .containsExactlyInAnyOrder("ns1/a", "ns1/b");
    assertThat(indexer.indexKeys(Indexers.CONTROLLER_UID, "owner-1"))
        .containsExactlyInAnyOrder("ns1/a", "ns2/c");
    assertThat(indexer.indexKeys(Indexers.CONTROLLER_UID, "owner-2")).isEmpty();

    indexer.upsert(pod("ns1", "a", "owner-3", true));
    indexer.delete(ObjectKey.parse("ns2/c"));

    assertThat(indexer.indexKeys(Indexers.CONTROLLER_UID, "owner-1")).isEmpty();
    assertThat(indexer.byIndex(Indexers.CONTROLLER_UID, "owner-3"))
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("a");
  }

  @Test
  void addIndexers_indexesObjectsAlreadyCached_andRejectsDuplicates() {
    indexer.upsert(pod("ns1", "a", null, false));

    indexer.addIndexers(Map.of("byName", p -> List.of(p.getMetadata().getName())));

    assertThat(indexer.indexKeys("byName", "a")).containsExactly("ns1/a");
    assertThatThrownBy(() -> indexer.addIndexers(Map.of("byName", p -> List.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("byName");
    assertThatThrownBy(() -> indexer.byIndex("nope", "x")).hasMessageContaining("nope");
  }

  @Test
  void replace_swapsTheWholeContentAndIndices() {
    indexer.addIndexers(Map.of(Indexers.NAMESPACE, Indexers.byNamespace()));
    indexer.upsert(pod("ns1", "a", null, false));

    indexer.replace(List.of(pod("ns2", "b", null, false)));

    assertThat(indexer.listKeys()).containsExactly("ns2/b");
    assertThat(indexer.indexKeys(Indexers.NAMESPACE, "ns1")).isEmpty();
    assertThat(indexer.indexKeys(Indexers.NAMESPACE, "ns2")).containsExactly("ns2/b");
  }

  @Test
  void readOnlyView_isNotWritable() {
    assertThat(indexer.readOnlyView()).isNotInstanceOf(MutableIndexer.class);
  }
}
