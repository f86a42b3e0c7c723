package io.podset.runtime.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RequestTest {

  @Test
  void parse_namespacedAndClusterScopedKeys() {
    assertThat(Request.parse("ns/a")).isEqualTo(new Request("ns", "a"));
    assertThat(Request.parse("a")).isEqualTo(new Request(null, "a"));
    assertThat(Request.parse("a").clusterScoped()).isTrue();
  }

  @Test
  void parse_rejectsMalformedKeysNamingThem() {
    for (String bad : new String[] {"/a", "a/", "a/b/c"}) {
      assertThatThrownBy(() -> Request.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
  }

  @Test
  void toString_isTheCacheKey() {
    assertThat(new Request("ns", "a")).hasToString("ns/a");
    assertThat(new Request("", "a")).hasToString("a");
  }

  @Test
  void of_readsNamespaceAndName() {
    var pod =
        new PodBuilder().withNewMetadata().withNamespace("ns").withName("p").endMetadata().build();
    assertThat(Request.of(pod)).isEqualTo(new Request("ns", "p"));
  }

  @Test
  void blankName_isRejected() {
    assertThatThrownBy(() -> new Request("ns", " ")).hasMessageContaining("name");
  }

  @Test
  void result_requeueAfterMustBePositive() {
    assertThat(Result.done().requeueAfter()).isEmpty();
    assertThat(Result.requeueAfter(Duration.ofSeconds(3)).requeueAfter())
        .contains(Duration.ofSeconds(3));
    assertThatThrownBy(() -> Result.requeueAfter(Duration.ZERO)).hasMessageContaining("PT0S");
  }
}
