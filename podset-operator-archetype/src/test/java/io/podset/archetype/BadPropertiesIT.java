package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * archetype:generate checks the descriptor's patterns only when it prompts; in batch mode the
 * archetype's post-generate script refuses bad values, naming the property and the value, and
 * leaves no project behind.
 */
class BadPropertiesIT {

  @TempDir Path dir;

  @Test
  void badKindGroupAndApiVersion_failNamingEach_andLeaveNoProject() {
    GeneratedProject.built(); // the archetype is in target/it-repo
    String generate =
        Guide.GENERATE
                .formatted(System.getProperty("archetype.version"))
                .replace("-Dkind=Website", "-Dkind=Class")
                .replace("-Dgroup=example.com", "-Dgroup=Example")
                .replace("-DapiVersion=v1alpha1", "-DapiVersion=1")
            + "\n";

    Processes.Result result =
        Processes.exec(dir, Map.of(), Duration.ofMinutes(5), UserShell.command(generate));

    assertThat(result.exit()).as("exit status of %s", generate).isEqualTo(1);
    assertThat(result.stdout())
        .contains(
            "kind must be UpperCamelCase letters and digits, not a Java keyword in lower case:"
                + " 'Class'")
        .contains("group must be a DNS subdomain with a dot, such as example.com: 'Example'")
        .contains("apiVersion must look like v1, v1beta1 or v1alpha1: '1'");
    assertThat(Files.exists(dir.resolve(GeneratedProject.ARTIFACT_ID))).isFalse();
  }
}
