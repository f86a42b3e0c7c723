package io.podset.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's run command, as written: it builds the jar this module just packaged and then runs
 * it; this test runs that jar part with the README's own arguments (plus a hidden option to exit
 * once settled and free ports) and expects the demo to reach "3/3 ready" and print a kubeconfig.
 */
class ReadmeRunCommandIT {

  private static final Pattern RUN_COMMAND =
      Pattern.compile(
          "^\\./mvnw (.*) -pl podset-playground -am package -DskipTests && java -jar"
              + " (podset-playground/target/podset-playground\\.jar)(.*)$",
          Pattern.MULTILINE);

  @TempDir Path dir;

  @Test
  void readmeRunCommand_startsThePlayground_andReachesThreeReadyPods() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher command = RUN_COMMAND.matcher(readme);
    assertThat(command.find()).as("the README's run command").isTrue();
    String readmeArgs = command.group(3).strip();
    assertThat(readmeArgs).as("the README runs the playground without options").isEmpty();

    Path jar = Path.of("..").resolve(command.group(2));
    assertThat(jar).as("the packaged playground (run in the integration-test phase)").exists();
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-jar");
    args.add(jar.toString());
    args.addAll(
        List.of(
            "--exit-when-settled",
            "--kubeconfig-out",
            dir.resolve("kubeconfig").toString(),
            "--health-port",
            "0",
            "--metrics-port",
            "0"));
    Path log = dir.resolve("demo.log");
    Process demo =
        new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean exited = demo.waitFor(120, TimeUnit.SECONDS);
    demo.destroyForcibly();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(exited).as("the demo settles and exits\n" + output).isTrue();
    assertThat(demo.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("Kubeconfig written to " + dir.resolve("kubeconfig"))
        .contains("kubectl --kubeconfig " + dir.resolve("kubeconfig") + " get podsets")
        .contains("Created PodSet default/example-podset with replicas: 3")
        .contains("example-podset settled: 3/3 ready");
  }
}
