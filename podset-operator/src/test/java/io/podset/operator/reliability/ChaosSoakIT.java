package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The chaos soak: PodSets are scaled, given new templates (a changed environment: pods replaced)
 * and new images (rolled into the pods in place), deleted and re-created at random (seeded) while
 * random faults hit the operator's requests, watches and event handlers ({@link FaultCampaign});
 * {@link PodSetInvariants} checks every state of the cluster. After the faults stop every PodSet
 * must converge within {@link #CONVERGENCE_BOUND}, and the settled operator must make no write,
 * even across a forced relist. The operator's writes per minute are bounded while the faults last,
 * and every 10-second window to twice that rate (a burst); from their end until it is quiet, its
 * writes are bounded by the work the backlog can need.
 *
 * <p>Two targets: the fake API server, and a real control plane behind a {@link
 * io.podset.testkit.FaultProxy} ({@link ProxiedControlPlane}; skipped without the binaries, except
 * in CI). CI size: {@value #CI_PODSETS} PodSets, {@value #CI_FAULT_SECONDS} s of faults on the
 * fake; {@value #CI_REAL_PODSETS} PodSets, {@value #CI_REAL_FAULT_SECONDS} s on the real control
 * plane. {@code -Dchaos.long=true}: {@value #LONG_PODSETS} PodSets, {@value #LONG_FAULT_SECONDS} s
 * on each (choose one with {@code -Dit.test=ChaosSoakIT#onARealControlPlane*} or {@code
 * #randomChanges*}). {@code -Dchaos.seed=N} repeats a run (the seed is printed; thread timing still
 * differs). {@code -Dchaos.trace=true} logs every create and delete decision of the reconciler with
 * what its caches showed; with the timelines of the first violating PodSets in the report (their
 * versions, their pods, the operator's cache versions at each change) it tells a duplicate create
 * from a stale view.
 */
class ChaosSoakIT {

  static final int CI_PODSETS = 30;
  static final int CI_FAULT_SECONDS = 40;
  static final int LONG_PODSETS = 200;

  /** CI size on the real control plane: about a minute and a half in all, its start included. */
  static final int CI_REAL_PODSETS = 20;

  static final int CI_REAL_FAULT_SECONDS = 30;

  private static final Path CRD = Path.of("../deploy/crds/podsets.app.example.com-v1.yml");
  static final int LONG_FAULT_SECONDS = 600;

  /**
   * How long after the operator's view a request it sent may land: latency spikes (up to 1.5 s), a
   * Retry-After (1 s) and the client's own retries of 5xx answers.
   */
  static final Duration IN_FLIGHT = Duration.ofSeconds(5);

  /**
   * The promise: converged this long after the faults stop. After the last fault an informer may
   * still be waiting: at most 7.5 s before it re-opens a watch from its version or asks a list page
   * again (5 s plus jitter), but up to 45 s before a full relist (client-go's 800 ms doubling to 30
   * s, plus up to 50% jitter, reset after a list and watch succeed). Two relist waits may follow
   * each other: the one begun by the last fault, then, when the relist meets one more refusal, the
   * next (seen before the 5-s resume cap: 73.5 s to converge, the pod cache 73.7 s behind). Two
   * full waits are 90 s; then the relist and a reconcile pass or two on a loaded machine.
   */
  static final Duration CONVERGENCE_BOUND = Duration.ofSeconds(120);

  /**
   * How long the operator must have made no pod or PodSet write before the steady state is
   * observed. Events are left out: the recorder may still flush counts of earlier ones up to its
   * per-object refill (60 s) later.
   */
  static final Duration QUIET = Duration.ofSeconds(11);

  /** How much longer than {@link #QUIET} the trailing Events may take to be quiet. */
  static final Duration QUIET_SLACK = Duration.ofSeconds(30);

  /** The observation window of the steady state after the relist. */
  static final Duration STEADY_WINDOW = Duration.ofSeconds(5);

  /**
   * Writes per minute and PodSet above which the operator is storming while the faults last: the
   * bound of the mean rate and, scaled to it, of every {@link #RATE_WINDOW}.
   */
  static final int MAX_WRITES_PER_MINUTE_PER_PODSET = 60;

  /**
   * Writes per change the driver made above which the operator is storming, however fast the
   * machine let the driver go: each change costs writes (pods, a status, Events, and the retries of
   * the writes the faults refuse; 5 to 7 per change measured), and on an idle machine the driver
   * makes twice the changes it makes under load in the same time (seen: 130 in 30 s, 1354 writes a
   * minute from 20 PodSets, past the per-PodSet bound alone).
   */
  static final int MAX_WRITES_PER_DRIVER_CHANGE = 10;

  /**
   * From the end of the faults until the operator is quiet it catches up with everything the stale
   * caches held back, in a burst as large as that backlog (seen: 312 writes in 6.4 s for 30 PodSets
   * after 331 held-back events were released at once), so a rate is the wrong measure there: the
   * work is. At most, per PodSet, a create, a delete, a replacement and an image patch for each of
   * its replicas (maxReplicas), and this many status writes and Events more. A storm that goes on
   * is caught anyway: the operator must then go quiet within {@link #QUIET_SLACK}.
   */
  static final int MAX_CATCH_UP_WRITES_PER_PODSET_BEYOND_PODS = 10;

  /** How many times the mean bound, scaled to {@link #RATE_WINDOW}, a window's writes may reach. */
  static final int BURST_FACTOR = 2;

  /** The window of the busiest-window measure. */
  static final Duration RATE_WINDOW = Duration.ofSeconds(10);

  private static final String NAMESPACE = "chaos";

  private final boolean longRun = Boolean.getBoolean("chaos.long");
  private final long seed = Long.getLong("chaos.seed", System.nanoTime());
  // -Dchaos.trace=true: the reconciler logs every create and delete decision with what it saw.
  private final boolean trace = Boolean.getBoolean("chaos.trace");
  // Closed last, newest first: the API server and what stands in front of it.
  private final List<AutoCloseable> servers = new ArrayList<>();
  private ClusterHistory history;
  private OperatorInstance operator;
  private FaultCampaign campaign;
  private OperatorView view;
  private SlowHandlerFault slowHandler;

  @AfterEach
  void stop() {
    if (campaign != null) {
      campaign.stop();
    }
    if (slowHandler != null) {
      slowHandler.stop();
    }
    if (operator != null) {
      operator.close();
    }
    if (history != null) {
      history.close();
    }
    if (view != null) {
      view.close();
    }
    for (int i = servers.size() - 1; i >= 0; i--) {
      try {
        servers.get(i).close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot stop " + servers.get(i), e);
      }
    }
  }

  @Test
  void randomChangesUnderRandomFaults_keepInvariants_converge_andSettleWithoutWrites() {
    FakeApiServer server =
        FakeApiServer.builder()
            .kubelet(KubeletOptions.defaults().withTerminationDelay(Duration.ofMillis(200)))
            .bookmarkInterval(Duration.ofSeconds(1))
            .start();
    servers.add(server);
    server.installCrds(CRD);
    soak(
        SoakTarget.fake(server),
        longRun ? LONG_PODSETS : CI_PODSETS,
        Duration.ofSeconds(longRun ? LONG_FAULT_SECONDS : CI_FAULT_SECONDS));
  }

  /**
   * The same soak on a real control plane (kube-apiserver and etcd, the controller manager's
   * garbage collector, kube-scheduler and kwok's nodes for Running and Ready pods), the operator's
   * requests going through a {@link io.podset.testkit.FaultProxy} that applies the same campaign
   * (with {@link FaultCampaign.Kind#CUT_RESPONSE} too; compaction becomes 410 on the next watches),
   * the invariants checked from the observer's watches of the real server through the same proxy.
   */
  @Test
  void onARealControlPlane_throughTheFaultProxy_keepInvariants_converge_andSettleWithoutWrites() {
    ProxiedControlPlane target = ProxiedControlPlane.start();
    servers.add(target);
    soak(
        target,
        longRun ? LONG_PODSETS : CI_REAL_PODSETS,
        Duration.ofSeconds(longRun ? LONG_FAULT_SECONDS : CI_REAL_FAULT_SECONDS));
  }

  private void soak(SoakTarget target, int podSets, Duration faultPhase) {
    int maxReplicas = longRun ? 10 : 5;
    System.out.println(
        "Chaos soak on the "
            + target.description()
            + ": seed "
            + seed
            + " (repeat with -Dchaos.seed="
            + seed
            + ")");
    Random random = new Random(seed);
    if (trace) {
      ((ch.qos.logback.classic.Logger)
              org.slf4j.LoggerFactory.getLogger(io.podset.operator.PodSetReconciler.class))
          .setLevel(ch.qos.logback.classic.Level.DEBUG);
    }
    KubernetesClient admin = target.admin();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    history = ClusterHistory.start(target.observerUrl());
    view = new OperatorView();
    PodSetInvariants invariants = new PodSetInvariants(view, IN_FLIGHT, target.gcGrace());
    target.uncheckedNamespace().ifPresent(invariants::ignoreNamespace);
    slowHandler = new SlowHandlerFault(random.nextLong());
    operator = target.startOperator("soak", null, 2, slowHandler);
    view.track(operator);

    Driver driver = new Driver(admin, random, maxReplicas);
    for (int i = 0; i < podSets; i++) {
      driver.create(String.format("ps-%03d", i));
    }
    campaign =
        new FaultCampaign(
            target.faults(),
            target.compaction(),
            target.faultKinds(),
            random.nextLong(),
            OperatorInstance.USER_AGENT_PREFIX,
            Duration.ofMillis(400),
            slowHandler);
    RequestJournal journal = target.journal();
    RequestMatcher operatorWrites =
        RequestMatcher.writes().userAgentContaining(OperatorInstance.USER_AGENT_PREFIX);
    // Pod and PodSet writes: Events are rate-limited per object and may trail for minutes after a
    // fault-heavy phase (counted separately in the report).
    java.util.function.Predicate<RequestRecord> stateWrites =
        r -> operatorWrites.test(r) && !"events".equals(r.resource());
    Instant faultsStarted = Instant.now();
    RequestMatcher operatorRequests =
        RequestMatcher.any().userAgentContaining(OperatorInstance.USER_AGENT_PREFIX);
    WriteMeter faultMeter = new WriteMeter(journal, operatorRequests);
    campaign.start();
    long end = System.nanoTime() + faultPhase.toNanos();
    while (System.nanoTime() - end < 0) {
      driver.step();
      invariants.advance(history);
      faultMeter.poll();
      LockSupport.parkNanos(Duration.ofMillis(50 + random.nextInt(longRun ? 150 : 350)).toNanos());
    }
    campaign.stop();
    long stoppedNanos = System.nanoTime();
    faultMeter.drain();
    WriteMeter convergenceMeter = new WriteMeter(journal, operatorRequests);
    long faultWrites = faultMeter.total();
    Duration faultDuration = Duration.between(faultsStarted, Instant.now());

    // Convergence: the observer's view of the cluster satisfies invariant 3.
    List<String> problems = List.of("not checked yet");
    while (!problems.isEmpty()) {
      if (System.nanoTime() - stoppedNanos > CONVERGENCE_BOUND.toNanos()) {
        throw new AssertionError(
            "not converged "
                + CONVERGENCE_BOUND
                + " after the faults stopped (seed "
                + seed
                + "):\n  "
                + String.join("\n  ", problems));
      }
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      history.awaitComplete(target.syncPoint(), Duration.ofSeconds(10));
      invariants.advance(history);
      convergenceMeter.poll();
      problems = invariants.convergenceProblems();
    }
    Duration convergence = Duration.ofNanos(System.nanoTime() - stoppedNanos);

    // Quiet: the tail of Events (rate-limited per object, flushed up to 10 s later) has been sent.
    Duration quiet = awaitQuiet(journal, stateWrites, stoppedNanos, convergenceMeter);
    convergenceMeter.drain();
    long convergenceWrites = convergenceMeter.total();
    // Until the operator went quiet, over at least one window (a short burst is not a rate).
    Duration convergenceWindow = quiet.compareTo(RATE_WINDOW) < 0 ? RATE_WINDOW : quiet;
    double convergenceWritesPerMinute =
        convergenceWrites / (convergenceWindow.toMillis() / 60_000.0);
    int busiestWindow = faultMeter.busiestWith(convergenceMeter);
    long maxCatchUpWrites =
        (long) podSets * (4L * maxReplicas + MAX_CATCH_UP_WRITES_PER_PODSET_BEYOND_PODS);

    // Steady state: no write over a window in which every pod changes (an annotation, as status
    // updates by a kubelet would), so every PodSet is reconciled again, and every watch drops.
    RequestJournal.Mark steadyMark = journal.mark();
    long steadyStart = System.nanoTime();
    int touched = 0;
    for (Pod pod : admin.pods().inNamespace(NAMESPACE).list().getItems()) {
      admin
          .pods()
          .inNamespace(NAMESPACE)
          .withName(pod.getMetadata().getName())
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"annotations\":{\"chaos.example.com/touched\":\"true\"}}}");
      touched++;
    }
    int dropped = target.faults().dropWatches(null, OperatorInstance.USER_AGENT_PREFIX);
    long steadyEnd = System.nanoTime() + STEADY_WINDOW.toNanos();
    while (System.nanoTime() - steadyEnd < 0) {
      assertThat(journal.records(operatorWrites.since(steadyMark)).stream().filter(stateWrites))
          .as("pod and PodSet writes in steady state")
          .isEmpty();
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
    }
    assertThat(journal.records(operatorWrites.since(steadyMark)).stream().filter(stateWrites))
        .as("pod and PodSet writes in steady state")
        .isEmpty();
    int steadyEvents = journal.count(operatorWrites.since(steadyMark));
    Duration steady = Duration.ofNanos(System.nanoTime() - steadyStart);

    history.awaitComplete(target.syncPoint(), Duration.ofSeconds(10));
    invariants.advance(history);
    double minutes = faultDuration.toMillis() / 60_000.0;
    double writesPerMinute = faultWrites / minutes;
    double maxWritesPerMinute =
        Math.max(
            (double) MAX_WRITES_PER_MINUTE_PER_PODSET * podSets,
            (double) MAX_WRITES_PER_DRIVER_CHANGE * driver.changes() / minutes);
    // A window may hold a burst twice the mean bound: the release of events the faults held back
    // makes one (seen 349 to 415 writes in 10 s, at 1131 to 1391 per minute, in runs that kept
    // every other bound); a storm that lasts is caught by the per-minute bound.
    double maxWindowWrites = BURST_FACTOR * maxWritesPerMinute * RATE_WINDOW.toMillis() / 60_000.0;
    long imagePatches = faultMeter.podPatches() + convergenceMeter.podPatches();
    long podWrites = faultMeter.podWrites();
    long failedWrites = faultMeter.failedWrites();

    StringBuilder report = new StringBuilder();
    report.append("=== Chaos soak report (").append(target.description()).append(") ===\n");
    report.append(
        String.format(
            "seed %d; %d PodSets (replicas 0..%d); %.0f s of faults%n",
            seed, podSets, maxReplicas, faultDuration.toMillis() / 1000.0));
    report.append("driver: ").append(driver.summary()).append('\n');
    report.append("driver's changes need, acted on one by one: ").append(driver.needs());
    report.append('\n');
    report.append("faults injected: ").append(campaign.counts()).append(", total ");
    report.append(campaign.total()).append('\n');
    report.append(
        String.format(
            "operator during faults: %d requests, %d writes (%.0f/min, busiest 10 s: %d),"
                + " %d successful pod writes (%d pod patches: images rolled in place),"
                + " %d failed writes%n",
            faultMeter.requests(),
            faultWrites,
            writesPerMinute,
            faultMeter.busiest(),
            podWrites,
            imagePatches,
            failedWrites));
    report.append("operator writes during faults by kind: ").append(faultMeter.byKind());
    report.append('\n');
    report.append("operator writes during faults by outcome: ").append(faultMeter.byOutcome());
    report.append('\n');
    report.append(
        String.format(
            "operator writes per driver change during faults: %.2f (%d changes); single-object"
                + " reads during faults: %s; until quiet: %s%n",
            (double) faultWrites / Math.max(1, driver.changes()),
            driver.changes(),
            faultMeter.gets(),
            convergenceMeter.gets()));
    report.append(
        String.format(
            "operator from the end of the faults until quiet (%.1f s): %d writes (bound %d;"
                + " %.0f/min, busiest 10 s: %d); busiest 10 s overall %d; bound during faults"
                + " %.0f/min, %.0f per 10 s%n",
            quiet.toMillis() / 1000.0,
            convergenceWrites,
            maxCatchUpWrites,
            convergenceWritesPerMinute,
            convergenceMeter.busiest(),
            busiestWindow,
            maxWritesPerMinute,
            maxWindowWrites));
    // Whether each pod created for a deleted PodSet was sent before the deletion or after.
    Map<DeletionRace.Kind, Integer> raceKinds = new EnumMap<>(DeletionRace.Kind.class);
    List<String> races = new ArrayList<>();
    for (PodSetInvariants.CreatedForDeleted pod : invariants.createdForDeletedPods()) {
      DeletionRace.Finding race = DeletionRace.of(journal, pod.podSet(), pod.pod());
      raceKinds.merge(race.kind(), 1, Integer::sum);
      races.add(race.line());
    }
    report.append(
        String.format(
            "invariants: %d states checked up to rv %d, %d violations; largest surplus after a"
                + " scale-down %d; %d pods created for a deleted PodSet (and collected): %d sent"
                + " after its deletion was answered (from a stale view), %d before (in flight"
                + " across it), %d not in the journal%n",
            invariants.checks(),
            invariants.processedVersion(),
            invariants.violationCount(),
            invariants.maxSurplus(),
            invariants.createdForDeleted(),
            raceKinds.getOrDefault(DeletionRace.Kind.STALE_VIEW, 0),
            raceKinds.getOrDefault(DeletionRace.Kind.IN_FLIGHT, 0),
            raceKinds.getOrDefault(DeletionRace.Kind.UNKNOWN, 0)));
    report.append("operator cache lag: ").append(invariants.cacheLag()).append('\n');
    report.append(
        String.format(
            "longest operator write: %d ms (the invariant allows %d ms in flight)%n",
            Math.max(
                faultMeter.longestWrite().toMillis(), convergenceMeter.longestWrite().toMillis()),
            IN_FLIGHT.toMillis()));
    report.append(
        String.format(
            "convergence after faults stopped: %.1f s (bound %d s), quiet (no write) from"
                + " %.1f s; %d pods at the end%n",
            convergence.toMillis() / 1000.0,
            CONVERGENCE_BOUND.toSeconds(),
            quiet.toMillis() / 1000.0,
            invariants.podCount()));
    report.append(
        String.format(
            "steady state: 0 pod/PodSet writes in %.1f s while all %d pods changed and %d watches"
                + " dropped (%d trailing Event writes)%n",
            steady.toMillis() / 1000.0, touched, dropped, steadyEvents));
    for (String violation : invariants.violations()) {
      report.append("VIOLATION ").append(violation).append('\n');
    }
    for (PodSetInvariants.CreatedForDeleted pod : invariants.createdForDeletedPods()) {
      report.append("CREATED FOR DELETED ").append(pod.description()).append('\n');
    }
    for (String race : races) {
      report.append(race).append('\n');
    }
    for (String explanation : invariants.explanations()) {
      report.append(explanation).append('\n');
    }
    System.out.print(report);

    assertThat(history.broken()).as("observer history").isNull();
    assertThat(invariants.violations()).as(report.toString()).isEmpty();
    assertThat(invariants.convergenceProblems()).as(report.toString()).isEmpty();
    assertThat(writesPerMinute)
        .as("writes per minute during faults (no reconcile storm)\n" + report)
        .isLessThanOrEqualTo(maxWritesPerMinute);
    assertThat(convergenceWrites)
        .as("writes from the end of the faults until quiet\n" + report)
        .isLessThanOrEqualTo(maxCatchUpWrites);
    assertThat((double) faultMeter.busiest())
        .as("writes in the busiest 10 s of the faults\n" + report)
        .isLessThanOrEqualTo(maxWindowWrites);
    if (driver.imageChangesOnPods() >= 5) {
      assertThat(imagePatches)
          .as("image changes rolled into pods in place\n" + report)
          .isPositive();
    }
  }

  /**
   * Waits until the operator made no write for {@link #QUIET}, at most {@link #QUIET_SLACK} longer;
   * returns when the quiet began, from {@code sinceNanos}.
   */
  private static Duration awaitQuiet(
      RequestJournal journal,
      java.util.function.Predicate<RequestRecord> stateWrites,
      long sinceNanos,
      WriteMeter meter) {
    long start = System.nanoTime();
    RequestJournal.Mark mark = journal.mark();
    long quietSince = start;
    List<RequestRecord> recent = List.of();
    while (System.nanoTime() - quietSince < QUIET.toNanos()) {
      if (System.nanoTime() - start > QUIET.plus(QUIET_SLACK).toNanos()) {
        throw new AssertionError(
            "the operator kept writing after converging; the latest writes: " + recent);
      }
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      meter.poll();
      RequestJournal.Mark now = journal.mark();
      List<RequestRecord> writes =
          journal.records(RequestMatcher.any().since(mark)).stream().filter(stateWrites).toList();
      if (!writes.isEmpty()) {
        quietSince = System.nanoTime();
        recent = writes;
      }
      mark = now;
    }
    return Duration.ofNanos(quietSince - sinceNanos);
  }

  /**
   * The operator's requests, read from the journal as they come (it keeps only the newest records):
   * writes counted in total and per {@link #RATE_WINDOW} of arrival time. Not thread-safe.
   */
  private static final class WriteMeter {
    private final RequestJournal journal;
    private final RequestMatcher operator;
    private final Map<Long, Integer> windows = new java.util.HashMap<>();
    private RequestJournal.Mark mark;
    private long total;
    private long requests;
    private long podWrites;
    private long podPatches;
    private long failedWrites;
    // "verb resource[/subresource]" -> {answered 2xx, refused or failed}
    private final Map<String, long[]> byKind = new java.util.TreeMap<>();
    // "verb resource[/subresource]" -> outcome (see outcome(r)) -> writes
    private final Map<String, Map<String, Long>> byOutcome = new java.util.TreeMap<>();
    // "get resource" -> reads of one object (the confirming GETs among them)
    private final Map<String, Long> gets = new java.util.TreeMap<>();
    private Duration longestWrite = Duration.ZERO;
    private long lastReadNanos = System.nanoTime();

    WriteMeter(RequestJournal journal, RequestMatcher operator) {
      this.journal = journal;
      this.operator = operator;
      this.mark = journal.mark();
    }

    /** Counts the new writes, at most once a second (a read copies the whole journal). */
    void poll() {
      if (System.nanoTime() - lastReadNanos >= Duration.ofSeconds(1).toNanos()) {
        drain();
      }
    }

    /** Counts the writes recorded since the previous read. */
    void drain() {
      lastReadNanos = System.nanoTime();
      List<RequestRecord> records = journal.records(RequestMatcher.any().since(mark));
      for (RequestRecord r : records) {
        if (!operator.test(r)) {
          continue;
        }
        requests++;
        if ("get".equals(r.verb())) {
          gets.merge("get " + r.resource(), 1L, Long::sum);
        }
        if (!r.isWrite()) {
          continue;
        }
        total++;
        if (r.duration().compareTo(longestWrite) > 0) {
          longestWrite = r.duration();
        }
        windows.merge(r.time().toEpochMilli() / RATE_WINDOW.toMillis(), 1, Integer::sum);
        String kind =
            r.verb() + " " + r.resource() + (r.subresource() == null ? "" : "/" + r.subresource());
        byKind.computeIfAbsent(kind, k -> new long[2])[r.status() >= 300 ? 1 : 0]++;
        byOutcome
            .computeIfAbsent(kind, k -> new java.util.LinkedHashMap<>())
            .merge(outcome(r), 1L, Long::sum);
        if (r.status() >= 300) {
          failedWrites++;
        } else if ("pods".equals(r.resource()) && r.subresource() == null) {
          podWrites++;
          if ("patch".equals(r.verb())) {
            podPatches++;
          }
        }
      }
      if (!records.isEmpty()) {
        mark = new RequestJournal.Mark(records.get(records.size() - 1).sequence());
      }
    }

    /** Writes. */
    long total() {
      return total;
    }

    long requests() {
      return requests;
    }

    /** Successful pod writes. */
    long podWrites() {
      return podWrites;
    }

    /** Successful pod patches (image updates in place, adoptions and releases). */
    long podPatches() {
      return podPatches;
    }

    long failedWrites() {
      return failedWrites;
    }

    /** The writes by verb and resource: {@code create pods 120 ok / 30 failed, ...}. */
    String byKind() {
      StringBuilder out = new StringBuilder();
      byKind.forEach(
          (kind, counts) ->
              out.append(out.isEmpty() ? "" : ", ")
                  .append(kind)
                  .append(' ')
                  .append(counts[0])
                  .append(" ok / ")
                  .append(counts[1])
                  .append(" failed"));
      return out.toString();
    }

    /**
     * What a write met: {@code 2xx}, {@code 409} (injected or a real conflict, told apart), {@code
     * 429}, {@code 5xx}, another status ({@code 404}, {@code 422}, ...), or {@code no answer}.
     */
    private static String outcome(RequestRecord r) {
      int status = r.status();
      if (status < 100) {
        return "no answer";
      }
      if (status < 300) {
        return "2xx";
      }
      if (status == 409) {
        return r.fault() == null ? "409 real" : "409 injected";
      }
      if (status >= 500) {
        return "5xx";
      }
      return Integer.toString(status);
    }

    /** The writes by kind and outcome: {@code create pods: 120 2xx, 20 429, 10 5xx; ...}. */
    String byOutcome() {
      StringBuilder out = new StringBuilder();
      byOutcome.forEach(
          (kind, outcomes) -> {
            out.append(out.isEmpty() ? "" : "; ").append(kind).append(':');
            outcomes.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append(' ').append(e.getValue()).append(' ').append(e.getKey()));
          });
      return out.toString();
    }

    /** The reads of single objects by resource: {@code get podsets 90, ...}. */
    String gets() {
      StringBuilder out = new StringBuilder();
      gets.forEach(
          (kind, n) -> out.append(out.isEmpty() ? "" : ", ").append(kind).append(' ').append(n));
      return out.isEmpty() ? "none" : out.toString();
    }

    /** The longest time from a write's arrival to its answer (injected latency included). */
    Duration longestWrite() {
      return longestWrite;
    }

    /** The most writes in one window. */
    int busiest() {
      return windows.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** The most writes in one window, counting {@code other}'s too (a window may span both). */
    int busiestWith(WriteMeter other) {
      Map<Long, Integer> both = new java.util.HashMap<>(windows);
      other.windows.forEach((window, count) -> both.merge(window, count, Integer::sum));
      return both.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
  }

  /** Random changes to the PodSets, through the admin client (never faulted). */
  private static final class Driver {
    private final KubernetesClient client;
    private final Random random;
    private final int maxReplicas;
    private final List<String> names = new ArrayList<>();
    private static final List<String> IMAGES =
        List.of("busybox:1.36", "busybox:1.36.1", "busybox:1.37");
    private final Map<String, Integer> versions = new java.util.HashMap<>();
    private final Map<String, String> images = new java.util.HashMap<>();
    private final Map<String, Integer> replicas = new java.util.HashMap<>();
    private final Map<String, Boolean> exists = new java.util.HashMap<>();
    private int scales;
    private int templates;
    private int imageChanges;
    private int imageChangesOnPods;
    private int deletes;
    private int recreates;
    // What an operator acting on each change in turn must write for it (none coalesced): pods
    // created or deleted, image patches, and changes that move a status.
    private int neededPodCreatesAndDeletes;
    private int neededImagePatches;
    private int statusMoves;

    Driver(KubernetesClient client, Random random, int maxReplicas) {
      this.client = client;
      this.random = random;
      this.maxReplicas = maxReplicas;
    }

    void create(String name) {
      if (!names.contains(name)) {
        names.add(name);
      }
      int version = versions.merge(name, 1, Integer::sum);
      String image = images.computeIfAbsent(name, n -> IMAGES.get(0));
      int count = random.nextInt(maxReplicas + 1);
      replicas.put(name, count);
      PodSetSpec spec = PodSetSpec.ofReplicas(count).withTemplate(template(version, image));
      client
          .resources(PodSet.class)
          .inNamespace(NAMESPACE)
          .resource(PodSet.of(NAMESPACE, name, spec))
          .create();
      exists.put(name, true);
    }

    void step() {
      String name = names.get(random.nextInt(names.size()));
      if (!exists.get(name)) {
        create(name);
        recreates++;
        neededPodCreatesAndDeletes += replicas.get(name);
        statusMoves++;
        return;
      }
      int dice = random.nextInt(100);
      var resource = client.resources(PodSet.class).inNamespace(NAMESPACE).withName(name);
      if (dice < 55) {
        int count = random.nextInt(maxReplicas + 1);
        int before = replicas.get(name);
        replicas.put(name, count);
        resource.patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + count + "}}");
        scales++;
        neededPodCreatesAndDeletes += Math.abs(count - before);
        statusMoves += count == before ? 0 : 1;
      } else if (dice < 72) {
        int version = versions.merge(name, 1, Integer::sum);
        patchTemplate(resource, template(version, images.get(name)));
        templates++;
        // Each pod replaced: a create and a delete.
        neededPodCreatesAndDeletes += 2 * replicas.get(name);
        statusMoves++;
      } else if (dice < 90) {
        // Another image only: rolled into the existing pods in place.
        List<String> others = new ArrayList<>(IMAGES);
        others.remove(images.get(name));
        String image = others.get(random.nextInt(others.size()));
        images.put(name, image);
        patchTemplate(resource, template(versions.get(name), image));
        imageChanges++;
        if (replicas.get(name) > 0) {
          imageChangesOnPods++;
        }
        neededImagePatches += replicas.get(name);
        statusMoves++;
      } else {
        resource.delete();
        exists.put(name, false);
        deletes++;
      }
    }

    private static void patchTemplate(
        io.fabric8.kubernetes.client.dsl.Resource<PodSet> resource, PodTemplateSpec template) {
      resource.patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"spec\":{\"template\":" + Serialization.asJson(template) + "}}");
    }

    /** Every change made so far: scales, template and image changes, deletes and re-creates. */
    int changes() {
      return scales + templates + imageChanges + deletes + recreates;
    }

    /**
     * What an operator that acts on each change in turn (coalescing none) must write successfully:
     * a pod create or delete per replica added, removed or replaced, an image patch per pod of a
     * new image, and at least one status write per change that moves the status (a scale to the
     * same count and a delete move none; the garbage collector deletes a deleted PodSet's pods).
     */
    String needs() {
      int changes = Math.max(1, changes());
      return String.format(
          "%d pod creates/deletes (%.2f per change), %d image patches (%.2f), >= %d status"
              + " writes (%.2f); together %.2f per change",
          neededPodCreatesAndDeletes,
          (double) neededPodCreatesAndDeletes / changes,
          neededImagePatches,
          (double) neededImagePatches / changes,
          statusMoves,
          (double) statusMoves / changes,
          (double) (neededPodCreatesAndDeletes + neededImagePatches + statusMoves) / changes);
    }

    /** Image changes of PodSets that had pods (or were asked for some). */
    int imageChangesOnPods() {
      return imageChangesOnPods;
    }

    String summary() {
      return scales
          + " scale changes, "
          + templates
          + " template changes (pods replaced), "
          + imageChanges
          + " image changes (rolled in place), "
          + deletes
          + " deletes, "
          + recreates
          + " re-creates";
    }

    private static PodTemplateSpec template(int version, String image) {
      return new PodTemplateSpecBuilder()
          .withNewSpec()
          .addNewContainer()
          .withName("main")
          .withImage(image)
          .withCommand("sleep", "3600")
          .withEnv(new EnvVarBuilder().withName("VERSION").withValue("v" + version).build())
          .endContainer()
          .endSpec()
          .build();
    }
  }
}
