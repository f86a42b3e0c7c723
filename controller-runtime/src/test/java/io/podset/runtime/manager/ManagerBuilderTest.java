package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Managers built from a builder: what they copy, what they validate, how they time shutdown. */
class ManagerBuilderTest {

  // Never contacted: no controller here watches anything.
  private final KubernetesClient client =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build())
          .build();

  @AfterEach
  void closeClient() {
    client.close();
  }

  @Test
  void managersFromOneBuilder_shareNoState_andLaterBuilderChangesDoNotReachThem() {
    ManagerBuilder builder =
        Manager.builder(client)
            .bindAddress("127.0.0.1")
            .healthPort(ManagerBuilder.ANY_FREE_PORT)
            .metricsPort(0);
    try (Manager first = builder.build()) {
      builder.healthPort(0);
      try (Manager second = builder.build()) {
        assertThat(first.meterRegistry()).isNotSameAs(second.meterRegistry());
        first.start();
        second.start();
        assertThat(first.healthPort()).as("the first manager's own health port").isPositive();
        assertThat(second.healthPort()).as("disabled for the second").isEqualTo(-1);
      }
    }
  }

  @Test
  void ports_belowAnyFreePort_areRefusedNamingTheAcceptedValues() {
    ManagerBuilder builder = Manager.builder(client);
    assertThatThrownBy(() -> builder.healthPort(-2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("healthPort must be between 0 and 65535, or ANY_FREE_PORT (-1), got -2");
    assertThatThrownBy(() -> builder.metricsPort(65536))
        .hasMessage("metricsPort must be between 0 and 65535, or ANY_FREE_PORT (-1), got 65536");
    builder.healthPort(ManagerBuilder.ANY_FREE_PORT).metricsPort(65535);
  }

  @Test
  void shutdown_sharesOneBudgetAcrossControllers_onTheInjectedClock() throws Exception {
    ManualClock clock = new ManualClock();
    List<Duration> budgets = new CopyOnWriteArrayList<>();
    CountDownLatch started = new CountDownLatch(2);
    Manager manager = Manager.builder(client).clock(clock).healthPort(0).metricsPort(0).build();
    // The first controller takes 3 s of the manager's clock to stop, the second none.
    manager.addController(() -> new Stopping(clock, started, budgets, Duration.ofSeconds(3)));
    manager.addController(() -> new Stopping(clock, started, budgets, Duration.ZERO));
    manager.start();
    assertThat(started.await(30, TimeUnit.SECONDS)).as("both controllers started").isTrue();

    manager.shutdown(Duration.ofSeconds(10));

    assertThat(budgets).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(7));
  }

  /** A controller whose shutdown records its budget and advances the clock by {@code takes}. */
  private record Stopping(
      ManualClock clock, CountDownLatch started, List<Duration> budgets, Duration takes)
      implements Controller {
    @Override
    public String name() {
      return "stopping";
    }

    @Override
    public void start() {
      started.countDown();
    }

    @Override
    public boolean isRunning() {
      return true;
    }

    @Override
    public int activeWorkers() {
      return 0;
    }

    @Override
    public boolean shutdown(Duration timeout) {
      budgets.add(timeout);
      clock.advance(takes);
      return true;
    }

    @Override
    public void close() {
      shutdown(Duration.ZERO);
    }
  }
}
