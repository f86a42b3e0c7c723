package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import org.junit.jupiter.api.Test;

class PodSetSpecTest {

  @Test
  void defaults_applyEveryDefault() {
    PodSetSpec spec = PodSetSpec.defaults();

    assertThat(spec.replicas()).isNull();
    assertThat(spec.effectiveReplicas()).isEqualTo(1);
    assertThat(spec.effectiveMaxUnavailable()).isEqualTo(1);
    assertThat(spec.effectiveUpdateStrategy()).isEqualTo(PodSetUpdateStrategy.defaults());
    assertThat(spec.effectiveTemplate()).isEqualTo(PodSetDefaults.template());
  }

  @Test
  void defaultTemplate_isOneBusyboxSleeping() {
    PodTemplateSpec template = PodSetDefaults.template();

    assertThat(template.getMetadata()).isNull();
    assertThat(template.getSpec().getContainers()).hasSize(1);
    Container container = template.getSpec().getContainers().get(0);
    assertThat(container.getName()).isEqualTo("busybox");
    assertThat(container.getImage()).isEqualTo("busybox");
    assertThat(container.getCommand()).containsExactly("sleep", "3600");
  }

  @Test
  void defaultTemplate_isANewModifiableInstanceEachCall() {
    PodTemplateSpec first = PodSetDefaults.template();
    first.getSpec().getContainers().get(0).setImage("changed");
    first.getSpec().getContainers().get(0).getCommand().add("extra");

    assertThat(PodSetDefaults.template().getSpec().getContainers().get(0).getImage())
        .isEqualTo("busybox");
    assertThat(PodSetDefaults.template()).isNotSameAs(PodSetDefaults.template());
  }

  @Test
  void effectiveTemplate_returnsTheGivenTemplate() {
    PodTemplateSpec template = PodSetDefaults.template();
    template.getSpec().getContainers().get(0).setImage("nginx");

    assertThat(PodSetSpec.defaults().withTemplate(template).effectiveTemplate()).isSameAs(template);
  }

  @Test
  void withers_changeOneFieldAndKeepTheOthers() {
    PodTemplateSpec template = PodSetDefaults.template();
    PodSetSpec spec =
        PodSetSpec.ofReplicas(3)
            .withTemplate(template)
            .withUpdateStrategy(PodSetUpdateStrategy.ofMaxUnavailable(2));

    PodSetSpec scaled = spec.withReplicas(5);

    assertThat(scaled).isEqualTo(new PodSetSpec(5, template, new PodSetUpdateStrategy(2)));
    assertThat(spec.replicas()).isEqualTo(3);
    assertThat(scaled.effectiveMaxUnavailable()).isEqualTo(2);
  }

  @Test
  void equalSpecs_areEqualWithEqualHashCodes() {
    PodSetSpec a = PodSetSpec.ofReplicas(3).withTemplate(PodSetDefaults.template());
    PodSetSpec b = PodSetSpec.ofReplicas(3).withTemplate(PodSetDefaults.template());
    PodTemplateSpec other = PodSetDefaults.template();
    other.getSpec().getContainers().get(0).setImage("busybox:1.36");

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(a.withTemplate(other));
    assertThat(a).isNotEqualTo(a.withReplicas(4));
  }

  @Test
  void ofReplicas_outOfRange_namesFieldAndValue() {
    assertThatThrownBy(() -> PodSetSpec.ofReplicas(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.replicas must be between 0 and 10000, got -1");
    assertThatThrownBy(() -> PodSetSpec.defaults().withReplicas(1_000_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.replicas must be between 0 and 10000, got 1000000");
    assertThat(PodSetSpec.ofReplicas(0).effectiveReplicas()).isZero();
    assertThat(PodSetSpec.ofReplicas(10_000).effectiveReplicas()).isEqualTo(10_000);
  }

  @Test
  void storedOutOfRangeValues_areReturnedAsIs() {
    assertThat(new PodSetSpec(-2, null, null).effectiveReplicas()).isEqualTo(-2);
    assertThat(new PodSetUpdateStrategy(0).effectiveMaxUnavailable()).isZero();
  }

  @Test
  void updateStrategy_ofMaxUnavailableBelowOne_namesFieldAndValue() {
    assertThatThrownBy(() -> PodSetUpdateStrategy.ofMaxUnavailable(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("updateStrategy.maxUnavailable must be at least 1, got 0");
    assertThat(PodSetUpdateStrategy.defaults().effectiveMaxUnavailable()).isEqualTo(1);
  }

  @Test
  void podSetOf_setsNamespaceNameAndSpec() {
    PodSet podSet = PodSet.of("ns", "web", PodSetSpec.ofReplicas(2));

    assertThat(podSet.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(podSet.getMetadata().getName()).isEqualTo("web");
    assertThat(podSet.getSpec().effectiveReplicas()).isEqualTo(2);
    assertThatThrownBy(() -> PodSet.of("ns", null, PodSetSpec.defaults()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("name");
  }
}
