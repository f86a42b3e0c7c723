package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

class ModelClassTest {

  @Test
  void aModelClass_isIntrospectedOnce_andOtherClassesAreRefusedEveryTime() {
    assertThat(ModelClass.of(Pod.class)).isSameAs(ModelClass.of(Pod.class));
    assertThat(ModelClass.of(Pod.class).properties()).containsKeys("metadata", "spec", "status");

    // No model class, the first time or later: an interface, a JDK class.
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> ModelClass.of(HasMetadata.class))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("io.fabric8.kubernetes.api.model.HasMetadata is not a model class");
      assertThatThrownBy(() -> ModelClass.of(String.class))
          .hasMessage("java.lang.String is not a model class");
    }
  }
}
