package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when {@code deploy/crds/podsets.app.example.com-v1.yml} differs from the CRD
 * generated from the Java types, so a change to the types cannot land without the CRD that clusters
 * install.
 */
class CrdDriftTest {

  static final String REGENERATE =
      "Regenerate it: ./mvnw -B -pl podset-api process-classes && cp"
          + " podset-api/target/classes/META-INF/fabric8/podsets.app.example.com-v1.yml"
          + " deploy/crds/podsets.app.example.com-v1.yml";

  @Test
  void checkedInCrd_equalsGeneratedCrd() {
    Path generatedFile = TestFiles.path("podset.crd.generated");
    Path checkedIn = TestFiles.path("podset.crd.checkedIn");
    assertThat(Files.isRegularFile(generatedFile))
        .as("the CRD generator should have written %s", generatedFile)
        .isTrue();
    assertThat(Files.isRegularFile(checkedIn))
        .as("%s is missing. %s", checkedIn.normalize(), REGENERATE)
        .isTrue();

    List<String> generated = lines(TestFiles.read(generatedFile));
    List<String> committed = lines(TestFiles.read(checkedIn));

    int line = firstDifference(committed, generated);
    if (line >= 0) {
      fail(
          "%s differs from the CRD generated from the Java types (%s); first difference at line"
              + " %d: checked in '%s', generated '%s'. %s",
          checkedIn.normalize(),
          generatedFile,
          line + 1,
          line < committed.size() ? committed.get(line) : "<end of file>",
          line < generated.size() ? generated.get(line) : "<end of file>",
          REGENERATE);
    }
  }

  @Test
  void firstDifference_findsChangedExtraAndMissingLines() {
    assertThat(firstDifference(List.of("a", "b"), List.of("a", "b"))).isEqualTo(-1);
    assertThat(firstDifference(List.of("a", "x"), List.of("a", "b"))).isEqualTo(1);
    assertThat(firstDifference(List.of("a"), List.of("a", "b"))).isEqualTo(1);
    assertThat(firstDifference(List.of("a", "b"), List.of("a"))).isEqualTo(1);
  }

  @Test
  void generatedCrdOnClasspath_isTheFileTheDriftCheckReads() {
    assertThat(TestFiles.generatedCrd())
        .isEqualTo(TestFiles.read(TestFiles.path("podset.crd.generated")));
  }

  /** The index of the first line that differs, or -1 when both are equal. */
  static int firstDifference(List<String> a, List<String> b) {
    int common = Math.min(a.size(), b.size());
    for (int i = 0; i < common; i++) {
      if (!a.get(i).equals(b.get(i))) {
        return i;
      }
    }
    return a.size() == b.size() ? -1 : common;
  }

  private static List<String> lines(String text) {
    return text.lines().toList();
  }
}
