package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's "Add a second API to a generated project", done to a copy of the generated project
 * after a user's edits have made it the Website operator of the examples (a ConfigMap, a Deployment
 * and a Service, a finalizer, Ready: the example's reconciler, spec and site directory, with the
 * operator, test and YAML of src/test/resources/website-like): the README's shell lines run by bash
 * with the system Maven (against this build's artifacts in target/it-repo), its snippets put where
 * it says, and the result's own {@code mvn -B verify} green with the tests of both APIs.
 */
class SecondApiIT {

  private static final Duration MAVEN_TIMEOUT = Duration.ofMinutes(10);
  private static final Path WEBSITE_LIKE = Path.of("src/test/resources/website-like");
  // The Website operator of the examples: the user's classes come from there (package renamed),
  // so the example is the one copy of them.
  private static final Path EXAMPLE =
      Path.of("../examples/src/main/java/io/podset/examples/website");
  private static final List<String> FROM_EXAMPLE =
      List.of("WebsiteReconciler.java", "WebsiteSpec.java", "SiteDirectory.java");

  @Test
  void secondApi_asTheReadmeSays_buildsAndPassesTheTestsOfBothApis() throws IOException {
    Path generated = GeneratedProject.built();
    Path work = Path.of("target", "second-api").toAbsolutePath();
    deleteTree(work);
    Path project = work.resolve(GeneratedProject.ARTIFACT_ID);
    copyTree(generated, project, p -> !p.startsWith(generated.resolve("target")));

    UserLines lines = overlay(userEdits(), project);
    System.out.printf(
        "Website-like operator: the user writes %d lines of main Java, %d of tests, %d of YAML%n",
        lines.main(), lines.test(), lines.yaml());

    bash(project, Guide.block("<!-- second-api: the IT runs these lines -->"));
    edit(
        project.resolve("src/main/java/com/example/Operator.java"),
        "package com.example;\n\n",
        "package com.example;\n\nimport com.example.blog.BlogReconciler;\n");
    edit(
        project.resolve("src/main/java/com/example/Operator.java"),
        "    new WebsiteReconciler(SiteDirectory.logging()).register(manager);\n",
        "    new WebsiteReconciler(SiteDirectory.logging()).register(manager);\n"
            + Guide.block("<!-- second-api: register -->"));
    edit(
        project.resolve("deploy/kustomization.yaml"),
        "  - crds/websites.example.com-v1.yml\n",
        "  - crds/websites.example.com-v1.yml\n"
            + Guide.block("<!-- second-api: kustomization -->"));
    Path clusterRole = project.resolve("deploy/rbac/cluster-role.yaml");
    Files.writeString(
        clusterRole, Files.readString(clusterRole) + Guide.block("<!-- second-api: rbac -->"));
    bash(project, Guide.block("<!-- second-api: the IT runs these lines too -->"));

    GeneratedProject.TestCounts counts = GeneratedProject.testCounts(project);
    System.out.printf(
        "with a second API: %d tests, %.1f s in the test classes%n",
        counts.tests(), counts.seconds());
    assertThat(counts.failures() + counts.errors() + counts.skipped()).isZero();
    assertThat(
            project.resolve("target/surefire-reports/TEST-com.example.blog.BlogReconcilerTest.xml"))
        .as("the second API's tests ran")
        .isRegularFile();
    assertThat(project.resolve("deploy/crds/blogs.example.com-v1.yml")).isRegularFile();
    String rendered =
        Processes.run(project, Duration.ofMinutes(2), List.of("kubectl", "kustomize", "deploy/"));
    assertThat(rendered)
        .contains("name: websites.example.com", "name: blogs.example.com", "- blogs/status");
  }

  /** Lines a user writes: non-blank, non-comment lines of each edited file not in the original. */
  record UserLines(int main, int test, int yaml) {}

  /**
   * The files the user writes, by path in the project: those of website-like, and the example's
   * Website classes in the generated project's package.
   */
  private static Map<String, String> userEdits() throws IOException {
    Map<String, String> edits = new java.util.TreeMap<>();
    for (String file : GeneratedProject.files(WEBSITE_LIKE)) {
      edits.put(file, Files.readString(WEBSITE_LIKE.resolve(file)));
    }
    for (String name : FROM_EXAMPLE) {
      String source = Files.readString(EXAMPLE.resolve(name));
      String renamed =
          source.replace("package io.podset.examples.website;", "package com.example.website;");
      assertThat(renamed).as("the package line of %s", name).isNotEqualTo(source);
      edits.put("src/main/java/com/example/website/" + name, renamed);
    }
    return edits;
  }

  private static UserLines overlay(Map<String, String> edits, Path project) throws IOException {
    int main = 0;
    int test = 0;
    int yaml = 0;
    for (Map.Entry<String, String> edit : edits.entrySet()) {
      String file = edit.getKey();
      Path target = project.resolve(file);
      List<String> before = Files.exists(target) ? code(Files.readString(target)) : List.of();
      String after = edit.getValue();
      int written = added(before, code(after));
      if (file.endsWith(".yaml")) {
        yaml += written;
      } else if (file.startsWith("src/test/")) {
        test += written;
      } else {
        main += written;
      }
      Files.createDirectories(target.getParent());
      Files.writeString(target, after);
    }
    return new UserLines(main, test, yaml);
  }

  /** The lines without blank lines and comments (as /work/notes/count-lines.sh counts). */
  static List<String> code(String text) {
    String noBlockComments = text.replaceAll("(?s)/\\*.*?\\*/", "");
    List<String> lines = new ArrayList<>();
    for (String line : noBlockComments.lines().toList()) {
      String stripped = line.replaceFirst("//.*$", "").replaceFirst("^\\s*#.*$", "").strip();
      if (!stripped.isEmpty()) {
        lines.add(stripped);
      }
    }
    return lines;
  }

  /** How many lines of {@code after} are not matched by a line of {@code before}. */
  static int added(List<String> before, List<String> after) {
    Map<String, Integer> available = new HashMap<>();
    before.forEach(line -> available.merge(line, 1, Integer::sum));
    int added = 0;
    for (String line : after) {
      if (available.getOrDefault(line, 0) > 0) {
        available.merge(line, -1, Integer::sum);
      } else {
        added++;
      }
    }
    return added;
  }

  private static void edit(Path file, String anchor, String replacement) throws IOException {
    String text = Files.readString(file);
    assertThat(text).as("%s holds the place the README names", file).contains(anchor);
    Files.writeString(file, text.replace(anchor, replacement));
  }

  private static void bash(Path dir, String lines) {
    Processes.run(dir, Map.of(), MAVEN_TIMEOUT, UserShell.command(lines));
  }

  private static void copyTree(Path from, Path to, java.util.function.Predicate<Path> include)
      throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : files.filter(include).toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
