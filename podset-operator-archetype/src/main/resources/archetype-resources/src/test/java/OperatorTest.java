package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OperatorTest {

  @Test
  void port_acceptsZeroToDisable_andAnyPort() {
    assertThat(Operator.port("HEALTH_PORT", "0")).isZero();
    assertThat(Operator.port("HEALTH_PORT", " 8081 ")).isEqualTo(8081);
  }

  @Test
  void port_thatIsNotAPort_namesTheVariableAndTheValue() {
    assertThatThrownBy(() -> Operator.port("METRICS_PORT", "80a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("METRICS_PORT must be a port in 0..65535: '80a'");
    assertThatThrownBy(() -> Operator.port("HEALTH_PORT", "70000"))
        .hasMessage("HEALTH_PORT must be a port in 0..65535: '70000'");
  }
}
