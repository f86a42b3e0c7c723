package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.testkit.FakeApiServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ManagerConfigIT {

  @Test
  void portInUse_failsStartNamingTheOptionAndPort() throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      Manager manager =
          Manager.builder(server.client())
              .bindAddress("127.0.0.1")
              .healthPort(port)
              .metricsPort(0)
              .build();

      assertThatThrownBy(manager::start)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("healthPort " + port + " is already in use");
      manager.close();
    }
  }

  @Test
  void badOptions_areRefusedNamingTheOption() {
    try (FakeApiServer server = FakeApiServer.start()) {
      ManagerBuilder builder = Manager.builder(server.client());
      assertThatThrownBy(() -> builder.healthPort(70_000)).hasMessageContaining("healthPort");
      assertThatThrownBy(() -> builder.metricsPort(-5)).hasMessageContaining("metricsPort");
      assertThatThrownBy(() -> builder.shutdownTimeout(Duration.ofSeconds(-1)))
          .hasMessageContaining("shutdownTimeout");
      assertThatThrownBy(
              () ->
                  LeaderElectionConfig.of("ns", "lease", "me")
                      .withTimings(
                          Duration.ofSeconds(15), Duration.ofSeconds(20), Duration.ofSeconds(2)))
          .hasMessageContaining("renewDeadline (PT20S) must be shorter than leaseDuration (PT15S)");
    }
  }

  @Test
  void withoutLeaderElection_theManagerLeadsAtOnce_andItsClientIsNotFenced() {
    try (FakeApiServer server = FakeApiServer.start();
        Manager manager =
            Manager.builder(server.client())
                .healthPort(ManagerBuilder.ANY_FREE_PORT)
                .metricsPort(0)
                .build()) {
      manager.start();
      assertThat(manager.isLeader()).isTrue();
      assertThat(manager.client()).isSameAs(server.client());
      assertThat(manager.metricsPort()).isEqualTo(-1);
      assertThat(manager.healthPort()).isPositive();
    }
  }
}
