package io.podset.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class ObjectKeyTest {

  @Test
  void of_namespacedObject_isNamespaceSlashName() {
    ObjectKey key =
        ObjectKey.of(
            new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .build());

    assertThat(key).isEqualTo(new ObjectKey("ns", "p"));
    assertThat(key.toString()).isEqualTo("ns/p");
  }

  @Test
  void of_clusterScopedObject_isJustTheName() {
    ObjectKey key =
        ObjectKey.of(new NamespaceBuilder().withNewMetadata().withName("ns").endMetadata().build());

    assertThat(key.clusterScoped()).isTrue();
    assertThat(key.toString()).isEqualTo("ns");
  }

  @Test
  void parse_roundTripsBothForms() {
    assertThat(ObjectKey.parse("ns/p")).isEqualTo(new ObjectKey("ns", "p"));
    assertThat(ObjectKey.parse("node-1")).isEqualTo(new ObjectKey(null, "node-1"));
  }

  @Test
  void parse_malformedKey_namesTheKey() {
    assertThatThrownBy(() -> ObjectKey.parse("a/b/c")).hasMessageContaining("a/b/c");
    assertThatThrownBy(() -> ObjectKey.parse("/p")).hasMessageContaining("empty namespace");
    assertThatThrownBy(() -> ObjectKey.parse("ns/")).hasMessageContaining("name");
    assertThatThrownBy(() -> new ObjectKey("", "p")).hasMessageContaining("namespace");
  }
}
