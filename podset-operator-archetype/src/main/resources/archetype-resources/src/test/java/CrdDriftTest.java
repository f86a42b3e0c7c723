package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fails when {@code deploy/crds/} differs from the CRDs the build generates from the Java types
 * (target/classes/META-INF/fabric8/), so a change to the types cannot ship without the CRD that
 * clusters install. To regenerate: {@code mvn process-classes && cp
 * target/classes/META-INF/fabric8/*-v1.yml deploy/crds/}.
 */
class CrdDriftTest {

  static final Path GENERATED = Path.of("target", "classes", "META-INF", "fabric8");
  static final Path CHECKED_IN = Path.of("deploy", "crds");

  @Test
  void checkedInCrds_equalTheGeneratedOnes() throws IOException {
    List<String> generated = crdNames(GENERATED);
    assertThat(generated).as("CRDs generated into %s", GENERATED).isNotEmpty();
    assertThat(crdNames(CHECKED_IN))
        .as("the CRDs in %s (regenerate: see CrdDriftTest)", CHECKED_IN)
        .containsExactlyElementsOf(generated);
    for (String name : generated) {
      assertThat(Files.readString(CHECKED_IN.resolve(name)))
          .as("%s against the generated %s (regenerate: see CrdDriftTest)",
              CHECKED_IN.resolve(name), GENERATED.resolve(name))
          .isEqualTo(Files.readString(GENERATED.resolve(name)));
    }
  }

  private static List<String> crdNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith("-v1.yml"))
          .sorted()
          .toList();
    }
  }
}
