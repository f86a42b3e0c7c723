package io.podset.operator;

import static io.podset.operator.TestObjects.UID;
import static io.podset.operator.TestObjects.podSet;
import static io.podset.operator.TestObjects.template;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodTemplatesTest {

  @Test
  void newPod_isNamedLabelledAnnotatedAndOwned() {
    PodTemplateSpec template = template("nginx");
    template.getMetadata().setAnnotations(Map.of("note", "x"));
    PodSet podSet = podSet(PodSetSpec.ofReplicas(1).withTemplate(template));
    PodTemplateHash hash = PodTemplateHash.of(template);

    Pod pod = PodTemplates.newPod(podSet, template, hash);

    assertThat(pod.getMetadata().getName()).isNull();
    assertThat(pod.getMetadata().getGenerateName()).isEqualTo("web-");
    assertThat(pod.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(pod.getMetadata().getLabels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "tier",
                "web",
                PodSetLabels.PODSET,
                "web",
                PodSetLabels.TEMPLATE_HASH,
                hash.full()));
    assertThat(pod.getMetadata().getAnnotations())
        .containsEntry("note", "x")
        .containsEntry(PodSetLabels.TEMPLATE_HASH_WITHOUT_IMAGES, hash.withoutImages());
    OwnerReference owner = pod.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getUid()).isEqualTo(UID);
    assertThat(owner.getKind()).isEqualTo("PodSet");
    assertThat(owner.getApiVersion()).isEqualTo("app.example.com/v1alpha1");
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
    assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
  }

  @Test
  void newPod_copiesTheTemplate() {
    PodTemplateSpec template = template("nginx");
    PodSet podSet = podSet(PodSetSpec.ofReplicas(1).withTemplate(template));

    Pod pod = PodTemplates.newPod(podSet, template, PodTemplateHash.of(template));
    pod.getSpec().getContainers().get(0).setImage("changed");
    pod.getMetadata().getLabels().put("tier", "changed");

    assertThat(template.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
    assertThat(template.getMetadata().getLabels()).containsEntry("tier", "web");
  }

  @Test
  void newPod_defaultTemplate_busyboxSleeping() {
    PodSet podSet = podSet(3);
    PodTemplateSpec template = podSet.getSpec().effectiveTemplate();

    Pod pod = PodTemplates.newPod(podSet, template, PodTemplateHash.of(template));

    assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("busybox");
    assertThat(pod.getSpec().getContainers().get(0).getCommand()).containsExactly("sleep", "3600");
  }

  @Test
  void newPod_podSetWithoutUid_isRejected() {
    PodSet podSet = podSet(1);
    podSet.getMetadata().setUid(null);
    PodTemplateSpec template = podSet.getSpec().effectiveTemplate();

    assertThatThrownBy(() -> PodTemplates.newPod(podSet, template, PodTemplateHash.of(template)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("owner.metadata.uid");
  }

  @Test
  void generateNamePrefix_longName_cutTo58() {
    String prefix = PodTemplates.generateNamePrefix("a".repeat(63));

    assertThat(prefix).hasSize(58).isEqualTo("a".repeat(58));
  }

  @Test
  void generateNamePrefix_shortName_nameAndDash() {
    assertThat(PodTemplates.generateNamePrefix("example-podset")).isEqualTo("example-podset-");
  }
}
