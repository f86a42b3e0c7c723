package io.podset.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.predicate.Predicates;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.reconcile.TerminalReconcileException;
import io.podset.runtime.time.ManualClock;
import io.podset.runtime.workqueue.RateLimiters;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

class ControllerTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ManualClock clock = new ManualClock();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final FakeInformerFactory informers = new FakeInformerFactory();
  private final FakeInformer<ReplicaSet> replicaSets = informers.fake(ReplicaSet.class);
  private final FakeInformer<Pod> pods = informers.fake(Pod.class);
  private final FakeInformer<ConfigMap> configMaps = informers.fake(ConfigMap.class);
  private final BlockingQueue<String> reconciled = new LinkedBlockingQueue<>();
  private Controller controller;

  @AfterEach
  void close() {
    if (controller != null) {
      controller.close();
    }
  }

  private static ReplicaSet replicaSet(String name, long generation) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(name)
        .withUid("uid-" + name)
        .withGeneration(generation)
        .withResourceVersion(Long.toString(generation))
        .endMetadata()
        .build();
  }

  private static Pod podOwnedBy(String owner) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(owner + "-pod")
        .withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion("apps/v1")
                .withKind("ReplicaSet")
                .withName(owner)
                .withUid("uid-" + owner)
                .withController(true)
                .build())
        .endMetadata()
        .build();
  }

  private ControllerBuilder builder(Reconciler reconciler) {
    return Controllers.builder(informers)
        .named("test")
        .clock(clock)
        .meterRegistry(metrics)
        .rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)))
        .forResource(ReplicaSet.class)
        .reconciler(reconciler);
  }

  private void start(ControllerBuilder builder) {
    replicaSets.sync();
    pods.sync();
    configMaps.sync();
    controller = builder.build();
    controller.start();
  }

  private Reconciler recording(Function<Request, Result> outcome) {
    return request -> {
      reconciled.add(request + " cause=" + MDC.get("cause"));
      return outcome.apply(request);
    };
  }

  private String nextReconcile() throws InterruptedException {
    String next = reconciled.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(next).as("a reconcile within " + WAIT).isNotNull();
    return next;
  }

  /** Waits until the controller is idle, then checks that nothing else was reconciled. */
  private void assertNoReconcile() throws InterruptedException {
    awaitIdle();
    assertThat(reconciled.poll(50, TimeUnit.MILLISECONDS)).isNull();
  }

  private void awaitIdle() throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (controller.activeWorkers() > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
  }

  @Test
  void heldBackRequest_isReconciledOnceTheGateOpens_withTheCausesKept() throws Exception {
    CompletableFuture<Void> open = new CompletableFuture<>();
    java.util.concurrent.atomic.AtomicBoolean holding =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    ReconcileGate gate = request -> holding.get() ? open : null;
    start(builder(recording(r -> Result.done())).gate(gate));

    replicaSets.add(replicaSet("a", 1));
    assertNoReconcile();

    holding.set(false);
    open.complete(null);
    assertThat(nextReconcile()).isEqualTo("ns/a cause=add ReplicaSet ns/a");
    assertNoReconcile();
  }

  @Test
  void closingResources_areClosedAfterTheWorkersStopped_evenWhenOneFails() throws Exception {
    List<String> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
    start(
        builder(recording(r -> Result.done()))
            .closing(() -> closed.add("pool active=" + controller.activeWorkers()))
            .closing(
                () -> {
                  throw new IllegalStateException("broken");
                })
            .closing(() -> closed.add("second")));
    assertThat(closed).isEmpty();

    controller.close();

    assertThat(closed).containsExactly("pool active=0", "second");
  }

  @Test
  void closedController_removesItsGauges_soTheNextOfTheSameNameReportsItsOwn() {
    start(builder(recording(r -> Result.done())).workers(2));
    assertThat(metrics.get("controller_runtime_max_concurrent_reconciles").gauge().value())
        .isEqualTo(2);
    controller.close();

    controller = builder(recording(r -> Result.done())).workers(5).build();
    assertThat(metrics.get("controller_runtime_max_concurrent_reconciles").gauge().value())
        .isEqualTo(5);
  }

  @Test
  void withoutARegistry_metricsStayOffTheGlobalOne() {
    int before = io.micrometer.core.instrument.Metrics.globalRegistry.getMeters().size();
    replicaSets.sync();
    controller =
        Controllers.builder(informers)
            .named("unmetered")
            .forResource(ReplicaSet.class)
            .reconciler(r -> Result.done())
            .build();
    assertThat(io.micrometer.core.instrument.Metrics.globalRegistry.getMeters()).hasSize(before);
  }

  @Test
  void addOfPrimary_reconcilesItWithItsCause() throws Exception {
    start(builder(recording(r -> Result.done())));

    replicaSets.add(replicaSet("a", 1));

    assertThat(nextReconcile()).isEqualTo("ns/a cause=add ReplicaSet ns/a");
  }

  @Test
  void handlers_areBufferedByDefault_andInlineWhenAskedFor() throws Exception {
    start(builder(recording(r -> Result.done())).owns(Pod.class));
    assertThat(replicaSets.inlineHandlerCount()).isZero();
    assertThat(pods.inlineHandlerCount()).isZero();
    controller.close();
    reconciled.clear();

    controller =
        builder(recording(r -> Result.done()))
            .named("inline")
            .owns(Pod.class)
            .inlineEventHandlers(true)
            .build();
    controller.start();
    replicaSets.add(replicaSet("a", 1));

    assertThat(replicaSets.inlineHandlerCount()).isEqualTo(1);
    assertThat(pods.inlineHandlerCount()).isEqualTo(1);
    assertThat(nextReconcile()).isEqualTo("ns/a cause=add ReplicaSet ns/a");
  }

  @Test
  void failures_backOffExponentiallyPerKey_andSuccessResetsTheBackoff() throws Exception {
    AtomicInteger failuresLeft = new AtomicInteger(3);
    start(
        builder(
            recording(
                r -> {
                  if (failuresLeft.getAndDecrement() > 0) {
                    throw new IllegalStateException("boom");
                  }
                  return Result.done();
                })));
    replicaSets.add(replicaSet("a", 1));
    nextReconcile();

    for (long delayMs : new long[] {5, 10, 20}) {
      awaitIdle();
      clock.advance(Duration.ofMillis(delayMs - 1));
      assertNoReconcile();
      clock.advance(Duration.ofMillis(1));
      assertThat(nextReconcile()).endsWith("cause=retry");
    }
    awaitIdle();
    // Success forgot the backoff: the next failure starts again at 5 ms.
    failuresLeft.set(1);
    replicaSets.update(replicaSet("a", 1), replicaSet("a", 2));
    nextReconcile();
    awaitIdle();
    clock.advance(Duration.ofMillis(5));
    assertThat(nextReconcile()).endsWith("cause=retry");
  }

  @Test
  void terminalError_isNotRetried() throws Exception {
    start(
        builder(
            recording(
                r -> {
                  throw new TerminalReconcileException("spec.replicas must be >= 0, got -1");
                })));
    replicaSets.add(replicaSet("a", 1));
    nextReconcile();

    clock.advance(Duration.ofHours(1));

    assertNoReconcile();
    assertThat(metrics.get("controller_runtime_terminal_reconcile_errors").counter().count())
        .isEqualTo(1);
  }

  @Test
  void requeueAfter_isHonoured() throws Exception {
    start(builder(recording(r -> Result.requeueAfter(Duration.ofSeconds(10)))));
    replicaSets.add(replicaSet("a", 1));
    nextReconcile();
    awaitIdle();

    clock.advance(Duration.ofMillis(9_999));
    assertNoReconcile();
    clock.advance(Duration.ofMillis(1));
    assertThat(nextReconcile()).isEqualTo("ns/a cause=requeueAfter");
  }

  @Test
  void eventOnOwnedObject_enqueuesItsControllerOwner() throws Exception {
    start(builder(recording(r -> Result.done())).owns(Pod.class));

    pods.add(podOwnedBy("a"));

    assertThat(nextReconcile()).isEqualTo("ns/a cause=add Pod ns/a-pod");
  }

  @Test
  void watches_mapsEventsThroughTheMapper() throws Exception {
    start(
        builder(recording(r -> Result.done()))
            .watches(
                ConfigMap.class,
                cm -> List.of(new Request("ns", "from-" + cm.getMetadata().getName()))));

    configMaps.add(
        new ConfigMapBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("c")
            .endMetadata()
            .build());

    assertThat(nextReconcile()).startsWith("ns/from-c ");
  }

  @Test
  void eventFilter_dropsFilteredEvents() throws Exception {
    start(
        Controllers.builder(informers)
            .named("filtered")
            .clock(clock)
            .meterRegistry(metrics)
            .forResource(ReplicaSet.class, Predicates.generationChanged())
            .reconciler(recording(r -> Result.done())));
    replicaSets.add(replicaSet("a", 1));
    nextReconcile();

    ReplicaSet statusOnly = replicaSet("a", 1);
    statusOnly.getMetadata().setResourceVersion("99");
    replicaSets.update(replicaSet("a", 1), statusOnly);
    assertNoReconcile();

    replicaSets.update(statusOnly, replicaSet("a", 2));
    assertThat(nextReconcile()).isEqualTo("ns/a cause=update ReplicaSet ns/a");
  }

  @Test
  void thrownError_doesNotKillAWorker() throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    start(
        builder(
                request -> {
                  if (request.name().startsWith("error")) {
                    throw new StackOverflowError("simulated");
                  }
                  bothInside.countDown();
                  release.await();
                  return Result.done();
                })
            .workers(2));
    for (int i = 0; i < 10; i++) {
      replicaSets.add(replicaSet("error-" + i, 1));
    }
    replicaSets.add(replicaSet("a", 1));
    replicaSets.add(replicaSet("b", 1));

    // Two different keys inside the reconciler at once: both workers survived ten Errors.
    assertThat(bothInside.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(controller.activeWorkers()).isEqualTo(2);
    release.countDown();
  }

  @Test
  void transientApiFailures_logOneWarningLine_whileBugsLogTheirStackTrace() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(DefaultController.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Level configured = logger.getLevel();
    logger.setLevel(Level.WARN);
    logger.addAppender(logs);
    try {
      start(
          builder(
              recording(
                  r -> {
                    if (r.name().equals("throttled")) {
                      throw new IllegalStateException(
                          "cannot create pods",
                          new KubernetesClientException(
                              new StatusBuilder()
                                  .withCode(429)
                                  .withReason("TooManyRequests")
                                  .withMessage("slow down")
                                  .build()));
                    }
                    throw new NullPointerException("spec is null");
                  })));
      replicaSets.add(replicaSet("throttled", 1));
      nextReconcile();
      replicaSets.add(replicaSet("buggy", 1));
      nextReconcile();
      awaitIdle();

      ILoggingEvent throttled = failureLogOf(logs, "ns/throttled");
      assertThat(throttled.getLevel()).isEqualTo(Level.WARN);
      assertThat(throttled.getThrowableProxy()).isNull();
      assertThat(throttled.getFormattedMessage())
          .isEqualTo(
              "Reconcile of ns/throttled failed, retry 1 scheduled: cannot create pods: slow down"
                  + " (HTTP 429 TooManyRequests)");
      ILoggingEvent buggy = failureLogOf(logs, "ns/buggy");
      assertThat(buggy.getLevel()).isEqualTo(Level.ERROR);
      assertThat(buggy.getThrowableProxy().getClassName())
          .isEqualTo(NullPointerException.class.getName());
    } finally {
      logger.detachAppender(logs);
      logger.setLevel(configured);
    }
  }

  private static ILoggingEvent failureLogOf(ListAppender<ILoggingEvent> logs, String request) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      for (ILoggingEvent event : List.copyOf(logs.list)) {
        if (event.getLevel().isGreaterOrEqual(Level.WARN)
            && event.getFormattedMessage().startsWith("Reconcile of " + request + " failed")) {
          return event;
        }
      }
      Thread.onSpinWait();
    }
    throw new AssertionError("no failure logged for " + request + " within " + WAIT);
  }

  @Test
  void eventsWhileQueued_coalesceIntoOneReconcile() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    start(
        builder(
            request -> {
              reconciled.add(request + " cause=" + MDC.get("cause"));
              inside.countDown();
              release.await();
              return Result.done();
            }));
    replicaSets.add(replicaSet("a", 1));
    assertThat(inside.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    nextReconcile();

    // While a is being reconciled, three more events arrive: one more reconcile, not three.
    for (int g = 2; g <= 4; g++) {
      replicaSets.update(replicaSet("a", g - 1), replicaSet("a", g));
    }
    release.countDown();

    assertThat(nextReconcile())
        .isEqualTo(
            "ns/a cause=update ReplicaSet ns/a, update ReplicaSet ns/a, update ReplicaSet ns/a");
    assertNoReconcile();
  }

  @Test
  void cachesThatNeverSync_failStartNamingTheInformerAndItsError() {
    pods.failing("403 Forbidden: pods is forbidden");
    replicaSets.sync();
    controller =
        builder(request -> Result.done())
            .owns(Pod.class)
            .cacheSyncTimeout(Duration.ofMillis(50))
            .build();

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasMessageContaining("Pod informer not synced")
        .hasMessageContaining("403 Forbidden");
    assertThat(controller.isRunning()).isFalse();
  }

  @Test
  void start_runsNoWorkerUntilItsHandlersHaveTheInitialState() throws Exception {
    replicaSets.holdInitialDelivery();
    replicaSets.sync();
    controller = builder(recording(r -> Result.done())).build();
    Thread starter = new Thread(controller::start, "starter");
    starter.start();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (replicaSets.handlerCount() == 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    replicaSets.add(replicaSet("a", 1));

    assertThat(reconciled.poll(100, TimeUnit.MILLISECONDS)).isNull();
    assertThat(controller.isRunning()).isFalse();

    replicaSets.finishInitialDelivery();
    assertThat(nextReconcile()).isEqualTo("ns/a cause=add ReplicaSet ns/a");
    starter.join(WAIT.toMillis());
    assertThat(controller.isRunning()).isTrue();
  }

  @Test
  void handlerNeverGivenTheInitialState_failsStartNamingIt() {
    replicaSets.holdInitialDelivery();
    replicaSets.sync();
    controller = builder(request -> Result.done()).cacheSyncTimeout(Duration.ofMillis(50)).build();

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasMessageContaining(
            "the handler of the ReplicaSet informer has not been given its initial state");
    assertThat(controller.isRunning()).isFalse();
  }

  @Test
  void metrics_countOutcomesUnderControllerRuntimeNames() throws Exception {
    start(builder(recording(r -> Result.done())));
    replicaSets.add(replicaSet("a", 1));
    nextReconcile();
    awaitIdle();

    assertThat(
            metrics
                .get("controller_runtime_reconcile")
                .tags("controller", "test", "result", "success")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(metrics.get("controller_runtime_reconcile_time").timer().count()).isEqualTo(1);
    assertThat(metrics.get("controller_runtime_max_concurrent_reconciles").gauge().value())
        .isEqualTo(1);
  }

  @Test
  void builder_rejectsBadArgumentsNamingThem() {
    assertThatThrownBy(() -> Controllers.builder(informers).named("Bad_Name"))
        .hasMessageContaining("'Bad_Name'");
    assertThatThrownBy(() -> Controllers.builder(informers).workers(0))
        .hasMessageContaining("workers");
    assertThatThrownBy(() -> Controllers.builder(informers).named("x").build())
        .hasMessageContaining("forResource");
    assertThatThrownBy(() -> Controllers.builder(informers).owns(Pod.class))
        .hasMessageContaining("forResource");
  }

  @Test
  void names_areUniquePerInformerFactory_untilClosed() {
    Controller first = builder(request -> Result.done()).build();
    assertThatThrownBy(() -> builder(request -> Result.done()).build())
        .hasMessageContaining("'test' already exists");
    first.close();
    builder(request -> Result.done()).build().close();
  }
}
