package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The README's getting-started commands ("Start a new operator project"), which the ITs run: the
 * generation and the generated project's build through maven-invoker-plugin (src/it/website), the
 * rest through {@link Processes}.
 */
final class Guide {

  static final String MARKER = "<!-- guide: every line is run by podset-operator-archetype's";
  static final String GENERATE =
      "mvn -B archetype:generate -DarchetypeGroupId=io.podset"
          + " -DarchetypeArtifactId=podset-operator-archetype -DarchetypeVersion=%s"
          + " -DgroupId=com.example -DartifactId=website-operator -Dkind=Website"
          + " -Dgroup=example.com -DapiVersion=v1alpha1 -DinteractiveMode=false";
  static final String CD = "cd website-operator";
  static final String VERIFY = "mvn -B verify";
  static final List<String> INSTALL_CRDS = List.of("kubectl", "apply", "-f", "deploy/crds/");
  static final List<String> RUN = List.of("java", "-jar", "target/website-operator.jar");
  static final List<String> APPLY_SAMPLE =
      List.of("kubectl", "apply", "-f", "deploy/samples/website.yaml");
  static final List<String> GET = List.of("kubectl", "get", "websites");
  static final List<String> DEPLOY = List.of("kubectl", "apply", "-k", "deploy/");

  private Guide() {}

  /** The lines of the README's guide block, in order. */
  static List<String> readmeLines() {
    return block(MARKER).lines().toList();
  }

  /** The text of the README's first fenced block after {@code marker}. */
  static String block(String marker) {
    Path readme = Path.of(System.getProperty("archetype.readme", "../README.md"));
    String text;
    try {
      text = Files.readString(readme);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int at = text.indexOf(marker);
    assertThat(at).as("%s in %s", marker, readme).isNotNegative();
    int fence = text.indexOf("```", at);
    int start = text.indexOf('\n', fence) + 1;
    int end = text.indexOf("```", start);
    return text.substring(start, end);
  }

  /** What the ITs run, as the README writes it. */
  static List<String> expectedLines(String archetypeVersion) {
    return List.of(
        GENERATE.formatted(archetypeVersion),
        CD,
        VERIFY,
        String.join(" ", INSTALL_CRDS),
        String.join(" ", RUN),
        String.join(" ", APPLY_SAMPLE),
        String.join(" ", GET),
        String.join(" ", DEPLOY));
  }

  /** The -D properties of a command line. */
  static Set<String> properties(String commandLine) {
    return Arrays.stream(commandLine.trim().split("\\s+"))
        .filter(word -> word.startsWith("-D"))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
