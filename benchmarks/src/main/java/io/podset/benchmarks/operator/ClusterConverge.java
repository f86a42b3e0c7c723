package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.benchmarks.Args;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.SimulatedCluster;
import io.podset.testkit.envtest.SimulatedClusterBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * The gold standard side by side (issue 23, item 4): N objects × 3 pods converged on a {@link
 * SimulatedCluster} (real kube-apiserver, etcd, kube-controller-manager, kube-scheduler, kwok
 * nodes), either ReplicaSets by the real ReplicaSet controller or PodSets by our operator, one
 * contender per fresh cluster. Phases: create (to all pods created, to all Ready), scale every
 * object to 5 (to all Ready), delete (to no pod left). Reported per phase: wall time, the CPU time
 * of each process (from {@code /proc}, so a shared machine's load shows less than in wall time),
 * and the contender's API requests from the API server's audit log (by user agent).
 *
 * <p>Usage: {@code ClusterConverge <contender> <N> <results.md>} with contender {@code
 * replicaset-default} (kube-controller-manager's default client limits, 5 syncs), {@code
 * replicaset-equal} ({@code --kube-api-qps/--kube-api-burst 1000}, as unlimited as our client, and
 * 8 syncs = our 8 workers), {@code ours} (the operator's jar, default options, in its own JVM) or
 * {@code ours-warm} (the same after one unmeasured round of the same work: what a fresh JVM's JIT
 * costs). Ours runs on a controller manager with the equal limits: its garbage collector deletes
 * our pods. Appends one Markdown row per phase to the results file, marked INVALID when processes
 * outside the run used more than a quarter of a CPU on average.
 */
public final class ClusterConverge {

  private static final List<String> CONTENDERS =
      List.of("replicaset-default", "replicaset-equal", "ours", "ours-warm");
  private static final String NAMESPACE = "bench";
  private static final int NODES = 10;
  private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
  private static final Path CRD = Path.of("deploy/crds/podsets.app.example.com-v1.yml");

  private ClusterConverge() {}

  /** Whether the run's directory is kept ({@code CLUSTER_KEEP}), with what is written into it. */
  static boolean keepsRunDirectory() {
    return System.getenv("CLUSTER_KEEP") != null;
  }

  /**
   * Refuses {@code option=value} unless the run's directory is kept: what the option writes there
   * would be deleted with it.
   */
  static void requireKept(String option, String value) {
    if (!keepsRunDirectory()) {
      throw new IllegalArgumentException(
          option
              + "="
              + value
              + " needs CLUSTER_KEEP=1: it writes to the run's directory, which is deleted"
              + " without it");
    }
  }

  /** Runs one contender; see the class documentation. */
  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !CONTENDERS.contains(args[0])) {
      throw new IllegalArgumentException(
          "usage: ClusterConverge <" + String.join("|", CONTENDERS) + "> <N> <results.md>");
    }
    String contender = args[0];
    int n = Args.positive("N (a CLUSTER_SIZES entry)", args[1]);
    Path results = Path.of(args[2]);
    // Checked before the cluster starts: a bad value fails at once.
    Duration profileLength = ApiServerProfile.requested();
    int perfHz = OperatorPerf.requested();
    boolean ours = contender.startsWith("ours");
    double loadAtStart = ClusterProcesses.loadAverage();
    ClusterProcesses.Usage usageAtStart = ClusterProcesses.usage();
    long startNanos = System.nanoTime();
    Path dir = Files.createTempDirectory("cluster-bench-");
    Path auditLog = dir.resolve("audit.log");
    try (SimulatedCluster cluster = start(contender, dir, auditLog);
        ClusterProcesses.Operator operator =
            ours
                ? ClusterProcesses.startOperator(
                    cluster, dir, perfHz > 0 ? OperatorPerf.jvmOptions() : List.of())
                : null) {
      KubernetesClient admin = cluster.client();
      admin
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      // The default ServiceAccount must exist before pods can be admitted.
      await(
          "the namespace's ServiceAccount",
          () -> admin.serviceAccounts().inNamespace(NAMESPACE).withName("default").get() != null);
      if (ours) {
        // The garbage collector finds a new CRD's resource at its next discovery resync (every
        // 30 s) and only then watches it. Until then it checks each new pod's owner with a GET
        // (throttled like all its requests), and a PodSet deleted before would wait for it. A
        // ReplicaSet's resource it watches from its start: so ours starts once it watches ours.
        await(
            "the garbage collector to watch podsets",
            AuditCounts.watchOrListSeen(auditLog, "kube-controller-manager", "podsets"));
      }
      AuditCounts.Counter counter =
          ours
              ? AuditCounts.userAgentContaining(auditLog, "podset-operator")
              : AuditCounts.userAgentContaining(auditLog, "replicaset-controller");
      PodCounts pods = new PodCounts();
      SharedIndexInformer<Pod> informer = admin.pods().inNamespace(NAMESPACE).inform(pods);
      OperatorThreads threads =
          OperatorThreads.start(operator, ClusterProcesses.sample(operator), pods.events());
      if (contender.equals("ours-warm")) {
        long warmStart = System.nanoTime();
        warmUp(admin, n, pods);
        Phase.awaitSettled(counter);
        threads.round("warm-up round (unmeasured: create, then delete)", warmStart);
      }
      ClusterProcesses.Sample before = ClusterProcesses.sample(operator);
      AuditCounts.Mark auditBefore = AuditCounts.mark(auditLog);

      ApiServerProfile profile =
          profileLength == null
              ? null
              : ApiServerProfile.start(cluster, dir, "apiserver", profileLength);
      // Only our operator's JVM is recorded (the ReplicaSet contenders have none).
      OperatorPerf perf =
          perfHz > 0 && ours ? OperatorPerf.start(operator.process().pid(), dir, perfHz) : null;
      long t0 = System.nanoTime();
      Parallel.forEachIndex(n, 8, i -> create(admin, ours, "obj-" + i));
      awaitCount("all " + 3 * n + " pods created", () -> pods.created(), c -> c >= 3 * n);
      long created = System.nanoTime();
      awaitCount("all " + 3 * n + " pods Ready", () -> pods.ready(), c -> c >= 3 * n);
      long ready = System.nanoTime();
      threads.ended();
      Phase create =
          Phase.of("create", before, auditBefore, operator, auditLog, counter, t0, ready);
      threads.phase(create, t0);

      long t1 = System.nanoTime();
      Parallel.forEachIndex(n, 8, i -> scale(admin, ours, "obj-" + i, 5));
      awaitCount("all " + 5 * n + " pods Ready", () -> pods.ready(), c -> c >= 5 * n);
      long scaled = System.nanoTime();
      threads.ended();
      Phase scale =
          Phase.of(
              "scale to 5",
              create.after(),
              create.auditAfter(),
              operator,
              auditLog,
              counter,
              t1,
              scaled);
      threads.phase(scale, t1);

      long t2 = System.nanoTime();
      Parallel.forEachIndex(n, 8, i -> delete(admin, ours, "obj-" + i));
      awaitCount("no pod left", () -> pods.existing(), c -> c == 0);
      long deleted = System.nanoTime();
      threads.ended();
      Phase delete =
          Phase.of(
              "delete",
              scale.after(),
              scale.auditAfter(),
              operator,
              auditLog,
              counter,
              t2,
              deleted);
      threads.phase(delete, t2);
      long end = System.nanoTime();
      if (profile != null) {
        profile.close();
      }
      threads.close();
      if (keepsRunDirectory()) {
        threads.write(dir.resolve("operator-threads.md"));
        keepLogs(cluster.workDirectory(), dir);
      }
      if (perf != null) {
        perf.stop();
        operator.close(); // the JVM writes its code map at exit, for perf script
        perf.report(
            dir,
            List.of(
                new PerfCategories.Window("create", t0 / 1e9, t1 / 1e9),
                new PerfCategories.Window("scale to 5", t1 / 1e9, t2 / 1e9),
                new PerfCategories.Window("delete", t2 / 1e9, end / 1e9)));
      }
      informer.close();

      double loadAtEnd = ClusterProcesses.loadAverage();
      double others =
          ClusterProcesses.usage()
              .othersSince(usageAtStart, Duration.ofNanos(System.nanoTime() - startNanos));
      String validity =
          others > ClusterProcesses.MAX_OTHERS_CPUS
              ? String.format(
                  "INVALID (others used %.2f CPUs; load %.1f/%.1f)", others, loadAtStart, loadAtEnd)
              : String.format(
                  "valid (others used %.2f CPUs; load %.1f/%.1f)", others, loadAtStart, loadAtEnd);
      StringBuilder rows = new StringBuilder();
      for (Phase phase : List.of(create, scale, delete)) {
        String row =
            phase.row(
                contender,
                n,
                counter,
                phase == create ? Duration.ofNanos(created - t0) : null,
                validity);
        System.out.println(row);
        rows.append(row).append('\n');
      }
      Files.writeString(
          results,
          rows.toString(),
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } finally {
      if (!keepsRunDirectory()) {
        deleteRecursively(dir);
      } else {
        System.err.println(
            "kept the run's directory (audit log, operator log, operator-threads.md): " + dir);
      }
    }
  }

  /**
   * Copies the control plane's process logs (kube-apiserver's tells why it ended a watch) into the
   * kept run directory: the cluster deletes its own directory on close.
   */
  private static void keepLogs(Path clusterDir, Path dir) throws IOException {
    // The logs are in the directory of the start attempt (run-1, or later after a port clash): the
    // last attempt's overwrite an earlier one's.
    try (var files = Files.walk(clusterDir, 2)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
        Files.copy(log, dir.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static SimulatedCluster start(String contender, Path dir, Path auditLog)
      throws IOException {
    Path policy = dir.resolve("audit-policy.yaml");
    Files.writeString(
        policy,
        """
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitStages: ["RequestReceived"]
        rules:
          - level: Metadata
        """);
    SimulatedClusterBuilder builder =
        SimulatedCluster.builder()
            .nodes(NODES)
            .crdFile(CRD)
            .apiServerFlag("audit-policy-file", policy.toString())
            .apiServerFlag("audit-log-path", auditLog.toString())
            .apiServerFlag("audit-log-format", "json")
            .apiServerFlag("audit-log-mode", "batch")
            .apiServerFlag("audit-log-batch-max-wait", Phase.AUDIT_BATCH_WAIT.toSeconds() + "s");
    if (!contender.equals("replicaset-default")) {
      // The controller manager's client limits bind its garbage collector too, which deletes
      // the pods of a deleted ReplicaSet or PodSet alike: at the default 20 requests/s it took
      // 75 s for ours at N=300 (20 pods/s). So ours runs on the controller manager that the
      // equal-limits ReplicaSet controller runs in, and the two deletes compare.
      builder
          .controllerManagerFlag("kube-api-qps", "1000")
          .controllerManagerFlag("kube-api-burst", "1000");
    }
    if (keepsRunDirectory()) {
      // Level 1 logs why the server's watch cache ended a watch ("Forcing ... watcher close due
      // to unresponsiveness": the client read too slowly).
      builder.apiServerFlag("v", "1");
    }
    if (contender.equals("replicaset-equal")) {
      builder.controllerManagerFlag("concurrent-replicaset-syncs", "8");
    }
    return builder.start();
  }

  /**
   * One unmeasured round for {@code ours-warm}: N other PodSets created until their pods are Ready,
   * then deleted until their pods are gone. The operator's JVM then measures with the JIT warmed by
   * the same work; the difference from {@code ours} is what a fresh JVM costs.
   */
  private static void warmUp(KubernetesClient admin, int n, PodCounts pods) throws Exception {
    Parallel.forEachIndex(n, 8, i -> create(admin, true, "warm-" + i));
    awaitCount("warm-up: all " + 3 * n + " pods Ready", pods::ready, c -> c >= 3 * n);
    Parallel.forEachIndex(n, 8, i -> delete(admin, true, "warm-" + i));
    awaitCount("warm-up: no pod left", pods::existing, c -> c == 0);
  }

  private static void create(KubernetesClient admin, boolean ours, String name) {
    if (ours) {
      admin
          .resources(PodSet.class)
          .inNamespace(NAMESPACE)
          .resource(PodSet.of(NAMESPACE, name, PodSetSpec.ofReplicas(3)))
          .create();
      return;
    }
    ReplicaSet replicaSet =
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withReplicas(3)
            .withNewSelector()
            .addToMatchLabels("app", name)
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", name)
            .endMetadata()
            .withSpec(PodSetDefaults.template().getSpec())
            .endTemplate()
            .endSpec()
            .build();
    admin.apps().replicaSets().inNamespace(NAMESPACE).resource(replicaSet).create();
  }

  /**
   * One PUT of the scale subresource, as {@code kubectl scale} makes one call: fabric8's {@code
   * scale(int)} makes three (GET and PUT of the scale, then GET of the object), which made the
   * driver, not the contender, set the pace of the phase (at N=300 the last of ours was sent 10.9 s
   * after the first, the ReplicaSets' after 7.5 s: a custom resource's calls are slower to serve).
   */
  private static void scale(KubernetesClient admin, boolean ours, String name, int replicas) {
    Scale scale =
        new ScaleBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NAMESPACE)
            .endMetadata()
            .withNewSpec()
            .withReplicas(replicas)
            .endSpec()
            .build();
    if (ours) {
      admin.resources(PodSet.class).inNamespace(NAMESPACE).withName(name).scale(scale);
    } else {
      admin.apps().replicaSets().inNamespace(NAMESPACE).withName(name).scale(scale);
    }
  }

  private static void delete(KubernetesClient admin, boolean ours, String name) {
    if (ours) {
      admin.resources(PodSet.class).inNamespace(NAMESPACE).withName(name).delete();
    } else {
      admin.apps().replicaSets().inNamespace(NAMESPACE).withName(name).delete();
    }
  }

  private static void awaitCount(
      String what, java.util.function.IntSupplier value, IntPredicate done) {
    await(what, () -> done.test(value.getAsInt()));
  }

  static void await(String what, BooleanSupplier condition) {
    Eventually.within(PHASE_TIMEOUT).until(what, condition);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /**
   * Counts the namespace's pods from an informer: existing, live (created) and Ready; and the pod
   * events, which every contender's pod informer receives too ({@link #events}).
   */
  private static final class PodCounts implements ResourceEventHandler<Pod> {
    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final PodEventCounts events = new PodEventCounts();

    @Override
    public void onAdd(Pod pod) {
      pods.put(pod.getMetadata().getName(), pod);
      events.added();
    }

    @Override
    public void onUpdate(Pod oldPod, Pod pod) {
      pods.put(pod.getMetadata().getName(), pod);
      events.updated(oldPod, pod);
    }

    @Override
    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
      pods.remove(pod.getMetadata().getName());
      events.deleted();
    }

    PodEventCounts events() {
      return events;
    }

    int existing() {
      return pods.size();
    }

    int created() {
      return (int)
          pods.values().stream()
              .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
              .count();
    }

    int ready() {
      return (int)
          pods.values().stream()
              .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
              .filter(
                  p ->
                      p.getStatus() != null
                          && p.getStatus().getConditions() != null
                          && p.getStatus().getConditions().stream()
                              .anyMatch(
                                  c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
              .count();
    }
  }
}
