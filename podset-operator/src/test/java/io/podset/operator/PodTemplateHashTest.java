package io.podset.operator;

import static io.podset.operator.TestObjects.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSetDefaults;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodTemplateHashTest {

  @Test
  void of_sameContent_sameHash() {
    assertThat(PodTemplateHash.of(template("nginx")))
        .isEqualTo(PodTemplateHash.of(template("nginx")));
    assertThat(PodTemplateHash.of(PodSetDefaults.template()))
        .isEqualTo(PodTemplateHash.of(PodSetDefaults.template()));
  }

  @Test
  void of_isShortHex() {
    PodTemplateHash hash = PodTemplateHash.of(template("nginx"));

    assertThat(hash.full()).matches("[0-9a-f]{10}");
    assertThat(hash.withoutImages()).matches("[0-9a-f]{10}");
  }

  @Test
  void of_imageChange_changesFullHashOnly() {
    PodTemplateHash before = PodTemplateHash.of(template("nginx:1.25"));
    PodTemplateHash after = PodTemplateHash.of(template("nginx:1.26"));

    assertThat(after.full()).isNotEqualTo(before.full());
    assertThat(after.withoutImages()).isEqualTo(before.withoutImages());
  }

  @Test
  void of_otherChange_changesBothHashes() {
    PodTemplateSpec changed = template("nginx");
    changed.getSpec().getContainers().get(0).setCommand(List.of("sleep", "1"));

    PodTemplateHash before = PodTemplateHash.of(template("nginx"));
    PodTemplateHash after = PodTemplateHash.of(changed);

    assertThat(after.full()).isNotEqualTo(before.full());
    assertThat(after.withoutImages()).isNotEqualTo(before.withoutImages());
  }

  @Test
  void of_labelOrder_doesNotMatter() {
    PodTemplateSpec a = template("nginx");
    a.getMetadata().setLabels(new LinkedHashMap<>());
    a.getMetadata().getLabels().put("x", "1");
    a.getMetadata().getLabels().put("y", "2");
    PodTemplateSpec b = template("nginx");
    b.getMetadata().setLabels(new LinkedHashMap<>());
    b.getMetadata().getLabels().put("y", "2");
    b.getMetadata().getLabels().put("x", "1");

    assertThat(PodTemplateHash.of(a)).isEqualTo(PodTemplateHash.of(b));
  }

  @Test
  void of_labelChange_changesBothHashes() {
    PodTemplateSpec changed = template("nginx");
    changed.getMetadata().getLabels().put("tier", "db");

    assertThat(PodTemplateHash.of(changed).withoutImages())
        .isNotEqualTo(PodTemplateHash.of(template("nginx")).withoutImages());
  }

  @Test
  void of_doesNotModifyTheTemplate() {
    PodTemplateSpec template = template("nginx");

    PodTemplateHash.of(template);

    assertThat(template.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
  }

  @Test
  void of_templateMutatedAfterHashing_hashesItsNewContent() {
    PodTemplateSpec template = template("nginx:1.25");
    PodTemplateHash first = PodTemplateHash.of(template);

    template.getSpec().getContainers().get(0).setImage("nginx:1.26");

    assertThat(PodTemplateHash.of(template)).isEqualTo(PodTemplateHash.of(template("nginx:1.26")));
    assertThat(PodTemplateHash.of(template).full()).isNotEqualTo(first.full());
    assertThat(PodTemplateHash.of(template("nginx:1.25"))).isEqualTo(first);
  }

  @Test
  void of_moreTemplatesThanRemembered_hashesEachByItsContent() {
    PodTemplateHash first = PodTemplateHash.of(template("image-0"));
    for (int i = 1; i <= PodTemplateHash.MEMO_SIZE * 2; i++) {
      PodTemplateHash.of(template("image-" + i));
    }

    assertThat(PodTemplateHash.of(template("image-0"))).isEqualTo(first);
    assertThat(PodTemplateHash.of(template("image-1")).withoutImages())
        .isEqualTo(first.withoutImages());
  }
}
