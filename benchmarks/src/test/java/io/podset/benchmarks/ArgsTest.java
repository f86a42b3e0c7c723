package io.podset.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArgsTest {

  @Test
  void positive_parsesAnIntegerOfAtLeastOne_blanksAround() {
    assertThat(Args.positive("N (a CLUSTER_SIZES entry)", "300")).isEqualTo(300);
    assertThat(Args.positive("N (a CLUSTER_SIZES entry)", " 1 ")).isEqualTo(1);
  }

  @Test
  void positive_refusesWhatIsNotAPositiveInteger_namingTheArgumentAndTheValue() {
    for (String bad : new String[] {"x", "0", "-3", "1.5", "", "99999999999"}) {
      assertThatThrownBy(() -> Args.positive("N (a CLUSTER_SIZES entry)", bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("N (a CLUSTER_SIZES entry) must be a positive integer, got: \"" + bad + "\"");
    }
    assertThatThrownBy(() -> Args.positive("pods", null))
        .hasMessage("pods must be a positive integer, got: \"null\"");
  }

  @Test
  void notNegative_acceptsZero_refusesNegativesAndNonNumbers() {
    assertThat(Args.notNegative("latency ms", "0")).isZero();
    assertThatThrownBy(() -> Args.notNegative("latency ms", "-5"))
        .hasMessage("latency ms must be an integer of at least 0, got: \"-5\"");
    assertThatThrownBy(() -> Args.notNegative("latency ms", "5ms"))
        .hasMessage("latency ms must be an integer of at least 0, got: \"5ms\"");
  }
}
