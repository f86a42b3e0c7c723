package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class RealApiServerExtensionTest {

  private static RealApiServer missing() {
    throw new ControlPlaneBinariesMissingException("not found; build them with the script");
  }

  @Test
  void startOrSkip_binariesMissingAndNotRequired_skipsWithHowToBuild() {
    assertThatThrownBy(
            () -> RealApiServerExtension.startOrSkip(RealApiServerExtensionTest::missing, false))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("build them with the script");
  }

  @Test
  void startOrSkip_binariesMissingAndRequired_fails() {
    assertThatThrownBy(
            () -> RealApiServerExtension.startOrSkip(RealApiServerExtensionTest::missing, true))
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("build them with the script")
        .hasMessageContaining("required because CI");
  }
}
