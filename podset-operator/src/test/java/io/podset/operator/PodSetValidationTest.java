package io.podset.operator;

import static io.podset.operator.TestObjects.podSet;
import static io.podset.operator.TestObjects.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetUpdateStrategy;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class PodSetValidationTest {

  @Test
  void problem_seedExample_none() {
    assertThat(PodSetValidation.problem(podSet(3))).isEmpty();
  }

  @Test
  void problem_emptySpec_none() {
    assertThat(PodSetValidation.problem(podSet(PodSetSpec.defaults()))).isEmpty();
  }

  @Test
  void problem_nameLongerThanALabelValue_namesTheFieldAndLength() {
    PodSet podSet = podSet(1);
    String name = "a".repeat(64);
    podSet.getMetadata().setName(name);

    assertThat(PodSetValidation.problem(podSet))
        .contains(
            "metadata.name '"
                + name
                + "' is 64 characters long; it must be at most 63 because it is the value of the"
                + " label app.example.com/podset on the PodSet's pods");
  }

  @Test
  void problem_nameOf63_none() {
    PodSet podSet = podSet(1);
    podSet.getMetadata().setName("a".repeat(63));

    assertThat(PodSetValidation.problem(podSet)).isEmpty();
  }

  @Test
  void problem_negativeReplicas_unenforcedSchema() {
    PodSet podSet = podSet(new PodSetSpec(-1, null, null));

    assertThat(PodSetValidation.problem(podSet))
        .contains("spec.replicas must be between 0 and 10000, got -1");
  }

  @Test
  void problem_zeroMaxUnavailable() {
    PodSet podSet =
        podSet(PodSetSpec.ofReplicas(1).withUpdateStrategy(new PodSetUpdateStrategy(0)));

    assertThat(PodSetValidation.problem(podSet))
        .contains("spec.updateStrategy.maxUnavailable must be at least 1, got 0");
  }

  @Test
  void problem_templateWithoutContainers() {
    PodTemplateSpec template = template("nginx");
    template.getSpec().setContainers(new ArrayList<>());

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .contains("spec.template.spec.containers must list at least one container, got none");
  }

  @Test
  void problem_templateWithoutSpec() {
    PodTemplateSpec template = template("nginx");
    template.setSpec(null);

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .contains("spec.template.spec.containers must list at least one container, got none");
  }

  @Test
  void problem_containerWithoutImage() {
    PodTemplateSpec template = template(null);

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .contains(
            "spec.template.spec.containers[0].image must be set (container 'app'), got 'null'");
  }

  @Test
  void problem_containerWithoutName() {
    PodTemplateSpec template = template("nginx");
    template.getSpec().getContainers().get(0).setName("");

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .contains("spec.template.spec.containers[0].name must be set, got ''");
  }

  @Test
  void problem_templateLabelNamingAnotherPodSet() {
    PodTemplateSpec template = template("nginx");
    template.getMetadata().getLabels().put(PodSetLabels.PODSET, "other");

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .contains(
            "spec.template.metadata.labels[app.example.com/podset] must be absent or the PodSet's"
                + " name 'web', got 'other'");
  }

  @Test
  void problem_templateLabelNamingThisPodSet_none() {
    PodTemplateSpec template = template("nginx");
    template.getMetadata().getLabels().put(PodSetLabels.PODSET, "web");

    assertThat(PodSetValidation.problem(podSet(PodSetSpec.ofReplicas(1).withTemplate(template))))
        .isEmpty();
  }
}
