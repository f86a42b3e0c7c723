package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.envtest.RealApiServer;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/**
 * The API packages are {@link NullMarked} (non-null unless {@code @Nullable}, checked by NullAway
 * at compile time); the internal packages are not API and not annotated.
 */
class NullMarkedApiTest {

  @Test
  void apiPackagesAreNullMarked() {
    assertThat(FakeApiServer.class.getPackage().isAnnotationPresent(NullMarked.class)).isTrue();
    assertThat(RealApiServer.class.getPackage().isAnnotationPresent(NullMarked.class)).isTrue();
  }
}
