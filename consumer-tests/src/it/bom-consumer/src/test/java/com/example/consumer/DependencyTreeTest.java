package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What importing the BOM gives a consumer, read from {@code mvn dependency:list} of this project
 * (every scope): one Jackson version, one fabric8 version, and no logging backend brought by us.
 */
class DependencyTreeTest {

  /** {@code group:artifact:type[:classifier]:version:scope}, as dependency:list prints it. */
  private static final Pattern LINE =
      Pattern.compile("^\\s+([^:\\s]+):([^:\\s]+):([^:\\s]+)(?::([^:\\s]+))?:([^:\\s]+):([a-z]+)");

  private static final Set<String> LOGGING_BACKENDS =
      Set.of(
          "ch.qos.logback:logback-classic",
          "org.slf4j:slf4j-simple",
          "org.slf4j:slf4j-jdk14",
          "org.slf4j:slf4j-reload4j",
          "org.slf4j:slf4j-nop",
          "org.apache.logging.log4j:log4j-slf4j2-impl",
          "org.apache.logging.log4j:log4j-slf4j-impl");

  record Artifact(String group, String artifact, String version, String scope) {
    String key() {
      return group + ":" + artifact;
    }
  }

  @Test
  void oneJacksonVersion() throws IOException {
    Map<String, String> jackson = versions("com.fasterxml.jackson");
    assertTrue(
        jackson.containsKey("com.fasterxml.jackson.core:jackson-databind"), jackson::toString);
    // jackson-annotations has its own two-part version line since 2.20 (2.21 beside 2.21.x).
    Set<String> full = new TreeSet<>();
    jackson.forEach(
        (key, version) -> {
          if (!key.equals("com.fasterxml.jackson.core:jackson-annotations")) {
            full.add(version);
          }
        });
    assertEquals(1, full.size(), "one Jackson version: " + jackson);
    String version = full.iterator().next();
    String annotations = jackson.get("com.fasterxml.jackson.core:jackson-annotations");
    assertTrue(
        annotations == null || version.startsWith(annotations),
        "jackson-annotations " + annotations + " beside Jackson " + version);
    assertEquals(fabric8JacksonVersion(), version, "the Jackson fabric8 was built with");
  }

  /** {@code jackson.version} of fabric8's own parent POM, as resolved into the local repository. */
  private static String fabric8JacksonVersion() throws IOException {
    String fabric8 = versions("io.fabric8").get("io.fabric8:kubernetes-client-api");
    Path pom =
        Path.of(System.getProperty("local.repository"))
            .resolve("io/fabric8/kubernetes-client-project")
            .resolve(fabric8)
            .resolve("kubernetes-client-project-" + fabric8 + ".pom");
    Pattern property = Pattern.compile("<jackson.version>([^<]+)</jackson.version>");
    Matcher version = property.matcher(Files.readString(pom));
    assertTrue(version.find(), "jackson.version in " + pom);
    return version.group(1);
  }

  @Test
  void oneFabric8Version() throws IOException {
    Map<String, String> fabric8 = versions("io.fabric8");
    assertTrue(fabric8.containsKey("io.fabric8:kubernetes-client-api"), fabric8::toString);
    assertEquals(1, new TreeSet<>(fabric8.values()).size(), "one fabric8 version: " + fabric8);
  }

  @Test
  void noLoggingBackendFromUs() throws IOException {
    List<String> backends =
        artifacts().stream().map(Artifact::key).filter(LOGGING_BACKENDS::contains).toList();
    assertTrue(backends.isEmpty(), "logging backends on the class path: " + backends);
    assertFalse(artifacts().isEmpty());
  }

  private static Map<String, String> versions(String groupPrefix) throws IOException {
    Map<String, String> versions = new TreeMap<>();
    for (Artifact a : artifacts()) {
      if (a.group().startsWith(groupPrefix)) {
        String previous = versions.put(a.key(), a.version());
        assertTrue(previous == null || previous.equals(a.version()), a.key() + " twice");
      }
    }
    return versions;
  }

  private static List<Artifact> artifacts() throws IOException {
    return Files.readAllLines(Path.of("target", "dependencies.txt")).stream()
        .map(LINE::matcher)
        .filter(Matcher::find)
        .map(m -> new Artifact(m.group(1), m.group(2), m.group(5), m.group(6)))
        .toList();
  }
}
