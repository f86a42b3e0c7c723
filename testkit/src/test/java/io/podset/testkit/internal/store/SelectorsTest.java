package io.podset.testkit.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.testkit.internal.resource.StatusError;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorsTest {

  private static JsonNode labelled(String labelsJson) throws Exception {
    return new ObjectMapper().readTree("{\"metadata\":{\"labels\":" + labelsJson + "}}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a in (b",
        "a notin b",
        "=x",
        "a b",
        "a=(x)",
        "Bad Key=x",
        "a=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "x>y"
      })
  void labelSelector_malformed_is400(String selector) {
    assertThatThrownBy(() -> LabelSelector.parse(selector))
        .isInstanceOfSatisfying(StatusError.class, e -> assertThat(e.code()).isEqualTo(400));
  }

  @Test
  void labelSelector_numericComparisons() throws Exception {
    assertThat(LabelSelector.parse("n>3").matches(labelled("{\"n\":\"4\"}"))).isTrue();
    assertThat(LabelSelector.parse("n<3").matches(labelled("{\"n\":\"4\"}"))).isFalse();
    assertThat(LabelSelector.parse("n>3").matches(labelled("{}"))).isFalse();
  }

  @Test
  void labelSelector_prefixedKeysAndEmptyValues() throws Exception {
    JsonNode object = labelled("{\"app.kubernetes.io/name\":\"x\",\"empty\":\"\"}");
    assertThat(LabelSelector.parse("app.kubernetes.io/name=x,empty=").matches(object)).isTrue();
    assertThat(LabelSelector.parse("empty in ()").matches(object)).isFalse();
  }

  @Test
  void fieldSelector_escapesAndUnsupportedFields() throws Exception {
    JsonNode object = new ObjectMapper().readTree("{\"metadata\":{\"name\":\"a,b=c\"}}");
    assertThat(FieldSelector.parse("metadata.name=a\\,b\\=c", Set.of(), "x").matches(object))
        .isTrue();
    assertThat(FieldSelector.parse("metadata.name!=a\\,b\\=c", Set.of(), "x").matches(object))
        .isFalse();
    assertThatThrownBy(() -> FieldSelector.parse("spec.x=1", Set.of(), "widgets"))
        .isInstanceOfSatisfying(
            StatusError.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo("field label not supported: spec.x (resource widgets)"));
    assertThatThrownBy(() -> FieldSelector.parse("metadata.name", Set.of(), "widgets"))
        .isInstanceOf(StatusError.class);
  }
}
