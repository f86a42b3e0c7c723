package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneBinariesTest {

  @TempDir Path temp;

  private final Map<String, String> env = new HashMap<>();

  @Test
  void locate_kubebuilderAssets_findsAllThree() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("assets"));
    executable(dir, "kube-apiserver");
    executable(dir, "etcd");
    executable(dir, "kube-controller-manager");
    env.put("KUBEBUILDER_ASSETS", dir.toString());
    env.put("HOME", temp.resolve("home").toString());

    ControlPlaneBinaries found = ControlPlaneBinaries.locate(env::get);

    assertThat(found.kubeApiServer()).isEqualTo(dir.resolve("kube-apiserver"));
    assertThat(found.etcd()).isEqualTo(dir.resolve("etcd"));
    assertThat(found.kubeControllerManager()).contains(dir.resolve("kube-controller-manager"));
  }

  @Test
  void locate_schedulerAndKwok_foundNextToTheOthers() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("assets"));
    executable(dir, "kube-apiserver");
    executable(dir, "etcd");
    executable(dir, "kube-scheduler");
    Path kwok = executable(Files.createDirectories(temp.resolve("elsewhere")), "kwok");
    env.put("KUBEBUILDER_ASSETS", dir.toString());
    env.put("TEST_ASSET_KWOK", kwok.toString());
    env.put("HOME", temp.resolve("home").toString());

    ControlPlaneBinaries found = ControlPlaneBinaries.locate(env::get);

    assertThat(found.kubeScheduler()).contains(dir.resolve("kube-scheduler"));
    assertThat(found.kwok()).contains(kwok);
    assertThat(found.kubeControllerManager()).isEmpty();
  }

  @Test
  void locate_testAssetVariable_winsOverDirectory() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("assets"));
    executable(dir, "kube-apiserver");
    executable(dir, "etcd");
    Path other = executable(Files.createDirectories(temp.resolve("other")), "my-etcd");
    env.put("KUBEBUILDER_ASSETS", dir.toString());
    env.put("TEST_ASSET_ETCD", other.toString());
    env.put("HOME", temp.resolve("home").toString());

    ControlPlaneBinaries found = ControlPlaneBinaries.locate(env::get);

    assertThat(found.etcd()).isEqualTo(other);
    assertThat(found.kubeControllerManager()).isEmpty();
    assertThat(found.kubeScheduler()).isEmpty();
    assertThat(found.kwok()).isEmpty();
  }

  @Test
  void locate_defaultCacheDirectory_usesXdgCacheHomeAndVersion() throws IOException {
    Path dir =
        Files.createDirectories(
            temp.resolve("xdg/podset/kube").resolve(ControlPlaneBinaries.DEFAULT_KUBE_VERSION));
    executable(dir, "kube-apiserver");
    executable(dir, "etcd");
    env.put("XDG_CACHE_HOME", temp.resolve("xdg").toString());

    assertThat(ControlPlaneBinaries.locate(env::get).kubeApiServer())
        .isEqualTo(dir.resolve("kube-apiserver"));
  }

  @Test
  void locate_nothingThere_explainsHowToBuild() {
    env.put("HOME", temp.resolve("home").toString());
    env.put("TEST_ASSET_KUBE_APISERVER", temp.resolve("missing").toString());

    assertThatThrownBy(() -> ControlPlaneBinaries.locate(env::get))
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("TEST_ASSET_KUBE_APISERVER=" + temp.resolve("missing"))
        .hasMessageContaining("etcd in [")
        .hasMessageContaining(ControlPlaneBinaries.BUILD_COMMAND);
  }

  @Test
  void locate_nonExecutableFile_isNotABinary() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("assets"));
    Files.writeString(dir.resolve("kube-apiserver"), "not executable");
    executable(dir, "etcd");
    env.put("KUBEBUILDER_ASSETS", dir.toString());
    env.put("HOME", temp.resolve("home").toString());

    assertThatThrownBy(() -> ControlPlaneBinaries.locate(env::get))
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("kube-apiserver in [" + dir);
  }

  @Test
  void defaultVersion_matchesBuildScriptDefault() throws IOException {
    String script = Files.readString(Path.of("kube/build-control-plane.sh"));
    Matcher matcher =
        Pattern.compile("KUBE_VERSION=\"\\$\\{KUBE_VERSION:-(v[0-9.]+)}\"").matcher(script);

    assertThat(matcher.find()).as("default KUBE_VERSION in the build script").isTrue();
    assertThat(matcher.group(1)).isEqualTo(ControlPlaneBinaries.DEFAULT_KUBE_VERSION);
  }

  private static Path executable(Path dir, String name) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
