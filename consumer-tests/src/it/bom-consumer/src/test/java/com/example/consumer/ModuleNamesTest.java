package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The library jars name their module ({@code Automatic-Module-Name}) for module-path users. */
class ModuleNamesTest {

  @Test
  void controllerRuntime_andTestkit_nameTheirModules() throws Exception {
    assertEquals("io.podset.runtime", moduleName(io.podset.runtime.reconcile.Reconciler.class));
    assertEquals("io.podset.testkit", moduleName(io.podset.testkit.FakeApiServer.class));
    assertEquals(
        "io.podset.testkit.junit5", moduleName(io.podset.testkit.junit5.WithFakeApiServer.class));
  }

  private static String moduleName(Class<?> type) throws Exception {
    Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
    }
  }
}
