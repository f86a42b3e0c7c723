package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class RealApiServerExtensionTest {

  private static RealApiServer missing() {
    throw new ControlPlaneBinariesMissingException("not found; build them with the script");
  }

  @Test
  void beforeAll_binariesMissingAndNotRequired_skipsWithHowToBuild() {
    RealApiServerExtension extension =
        new RealApiServerExtension(RealApiServerExtensionTest::missing, () -> false);

    assertThatThrownBy(() -> extension.beforeAll(null))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("build them with the script");
  }

  @Test
  void beforeAll_binariesMissingAndRequired_fails() {
    RealApiServerExtension extension =
        new RealApiServerExtension(RealApiServerExtensionTest::missing, () -> true);

    assertThatThrownBy(() -> extension.beforeAll(null))
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("build them with the script")
        .hasMessageContaining("required because CI");
  }

  @Test
  void server_outsideATest_isRefused() {
    RealApiServerExtension extension =
        new RealApiServerExtension(RealApiServerExtensionTest::missing, () -> false);

    assertThatThrownBy(extension::server).isInstanceOf(IllegalStateException.class);
  }
}
