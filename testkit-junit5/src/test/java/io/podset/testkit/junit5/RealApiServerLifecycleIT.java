package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.testkit.envtest.RealApiServer;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RealApiServerLifecycleIT {

  @Test
  void close_stopsEveryProcessAndDeletesTheWorkDirectory() {
    RealApiServer server =
        RealApiServerExtension.startOrSkip(RealApiServer.builder().withControllerManager());
    Path workDir = server.workDirectory();
    URI url = server.url();
    assertThat(Files.isDirectory(workDir)).isTrue();
    assertThat(childrenUsing(workDir)).hasSize(3);

    server.close();

    assertThat(Files.exists(workDir)).isFalse();
    assertThat(childrenUsing(workDir)).isEmpty();
    assertThatThrownBy(() -> new Socket(url.getHost(), url.getPort()).close())
        .isInstanceOf(IOException.class);
    assertThatThrownBy(server::client).isInstanceOf(IllegalStateException.class);
    server.close();
  }

  private static List<ProcessHandle> childrenUsing(Path workDir) {
    return ProcessHandle.current()
        .children()
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info().arguments().stream()
                    .flatMap(Arrays::stream)
                    .anyMatch(argument -> argument.contains(workDir.toString())))
        .toList();
  }
}
