package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl against the fake for issue 5: foreground cascading deletion, a strategic merge patch of a
 * pod's image, and server-side apply conflicts between two field managers. kubectl must be
 * installed (these tests fail, they do not skip, without it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlDeletionPatchIT {

  @TempDir static Path dir;
  private FakeApiServer server;
  private Path kubeconfig;
  private Path kubectl;

  /** The outcome of one kubectl run. */
  private record Run(int exit, String output) {}

  @BeforeAll
  void start() {
    kubectl = Path.of("/usr/bin/kubectl");
    assertThat(Files.isExecutable(kubectl))
        .as("kubectl is required for these tests at /usr/bin/kubectl")
        .isTrue();
    server =
        FakeApiServer.builder()
            .kubelet(KubeletOptions.immediate().withTerminationDelay(Duration.ofMillis(300)))
            .start();
    kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  @AfterAll
  void stop() {
    server.close();
  }

  private Run run(String... args) {
    List<String> command = new ArrayList<>();
    command.add(kubectl.toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.add("--cache-dir=" + dir.resolve("cache"));
    command.add("--request-timeout=30s");
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output;
      try (var in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
      return new Run(process.exitValue(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private String kubectl(String... args) {
    Run run = run(args);
    assertThat(run.exit())
        .as("kubectl %s exit code; output:%n%s", String.join(" ", args), run.output())
        .isZero();
    return run.output();
  }

  private static Pod pod(String name, ConfigMap owner) {
    PodBuilder builder =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx:1.27")
            .endContainer()
            .addNewContainer()
            .withName("sidecar")
            .withImage("busybox:1.36")
            .endContainer()
            .endSpec();
    if (owner != null) {
      builder
          .editMetadata()
          .withOwnerReferences(
              new OwnerReferenceBuilder()
                  .withApiVersion("v1")
                  .withKind("ConfigMap")
                  .withName(owner.getMetadata().getName())
                  .withUid(owner.getMetadata().getUid())
                  .withBlockOwnerDeletion(true)
                  .build())
          .endMetadata();
    }
    return builder.build();
  }

  @Test
  void deleteCascadeForeground_removesDependentsBeforeTheOwner() throws Exception {
    ConfigMap owner =
        server
            .client()
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    server.client().pods().resource(pod("dep-1", owner)).create();
    server.client().pods().resource(pod("dep-2", owner)).create();
    long from = server.resourceVersion();
    try (HttpWatch pods =
            new HttpWatch(
                server.url(),
                "/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + from);
        HttpWatch configMaps =
            new HttpWatch(
                server.url(),
                "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + from)) {
      kubectl("delete", "configmap", "owner", "--cascade=foreground");
      assertThat(server.client().configMaps().withName("owner").get()).isNull();
      assertThat(server.client().pods().list().getItems())
          .extracting(p -> p.getMetadata().getName())
          .doesNotContain("dep-1", "dep-2");

      long ownerDeleted = -1;
      for (JsonNode event = configMaps.next(); ; event = configMaps.next()) {
        if (event.path("type").asText().equals("DELETED")) {
          ownerDeleted = event.path("object").path("metadata").path("resourceVersion").asLong();
          break;
        }
        assertThat(event.path("object").path("metadata").path("finalizers").toString())
            .contains("foregroundDeletion");
      }
      int podsDeleted = 0;
      while (podsDeleted < 2) {
        JsonNode event = pods.next();
        if (event.path("type").asText().equals("DELETED")) {
          podsDeleted++;
          assertThat(event.path("object").path("metadata").path("resourceVersion").asLong())
              .as("a dependent goes before its owner")
              .isLessThan(ownerDeleted);
        }
      }
    }
  }

  @Test
  void patchStrategic_changesOneContainersImage() {
    server.client().pods().resource(pod("web", null)).create();
    kubectl(
        "patch",
        "pod",
        "web",
        "--type=strategic",
        "-p",
        "{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.28\"}]}}");
    List<Container> containers =
        server.client().pods().withName("web").get().getSpec().getContainers();
    assertThat(containers)
        .extracting(Container::getName, Container::getImage)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("app", "nginx:1.28"),
            org.assertj.core.groups.Tuple.tuple("sidecar", "busybox:1.36"));
  }

  @Test
  void applyServerSide_byTwoManagers_reportsTheConflict() throws IOException {
    Path first = dir.resolve("settings-a.yaml");
    Files.writeString(
        first,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n");
    Path second = dir.resolve("settings-b.yaml");
    Files.writeString(
        second,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: safe\n");
    kubectl("apply", "--server-side", "--field-manager=alice", "-f", first.toString());

    Run conflict = run("apply", "--server-side", "--field-manager=bob", "-f", second.toString());
    assertThat(conflict.exit()).as(conflict.output()).isNotZero();
    assertThat(conflict.output()).contains("conflict").contains("alice").contains(".data.mode");
    assertThat(server.client().configMaps().withName("settings").get().getData())
        .isEqualTo(Map.of("mode", "fast"));

    kubectl(
        "apply",
        "--server-side",
        "--field-manager=bob",
        "--force-conflicts",
        "-f",
        second.toString());
    assertThat(server.client().configMaps().withName("settings").get().getData())
        .isEqualTo(Map.of("mode", "safe"));
  }
}
