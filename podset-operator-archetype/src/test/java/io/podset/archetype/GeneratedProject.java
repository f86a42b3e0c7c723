package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The project src/it/website generated and built, under target/it/website/website-operator. */
final class GeneratedProject {

  static final String ARTIFACT_ID = "website-operator";

  private GeneratedProject() {}

  /** The generated project's directory, after checking that its own build passed. */
  static Path built() {
    Path it = Path.of(System.getProperty("archetype.it.dir", "target/it"), "website");
    Path project = it.resolve(ARTIFACT_ID);
    assertThat(project.resolve("target").resolve(ARTIFACT_ID + ".jar"))
        .as("the generated project's jar: its build failed, see %s", it.resolve("build.log"))
        .isRegularFile();
    return project;
  }

  /** Tests, failures and errors, and seconds, summed over the project's surefire reports. */
  record TestCounts(int tests, int failures, int errors, int skipped, double seconds) {}

  static TestCounts testCounts(Path project) {
    Pattern suite = Pattern.compile("<testsuite [^>]*?tests=\"(\\d+)\"[^>]*?>", Pattern.DOTALL);
    int tests = 0;
    int failures = 0;
    int errors = 0;
    int skipped = 0;
    double seconds = 0;
    try (Stream<Path> reports = Files.list(project.resolve("target/surefire-reports"))) {
      for (Path report : reports.filter(p -> p.toString().endsWith(".xml")).toList()) {
        Matcher m = suite.matcher(Files.readString(report));
        assertThat(m.find()).as("a testsuite element in %s", report).isTrue();
        String element = m.group();
        tests += attribute(element, "tests");
        failures += attribute(element, "failures");
        errors += attribute(element, "errors");
        skipped += attribute(element, "skipped");
        seconds += Double.parseDouble(stringAttribute(element, "time").replace(",", ""));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new TestCounts(tests, failures, errors, skipped, seconds);
  }

  private static int attribute(String element, String name) {
    return Integer.parseInt(stringAttribute(element, name));
  }

  private static String stringAttribute(String element, String name) {
    Matcher m = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(element);
    assertThat(m.find()).as("%s in %s", name, element).isTrue();
    return m.group(1);
  }

  /** The files under {@code dir}, relative to it, sorted. */
  static List<String> files(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(f -> dir.relativize(f).toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
