package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RbacGrants;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RBAC manifests against what the operator really does. The packaged operator runs as its own
 * process, as deployed ({@code --leader-elect}, its Lease in {@code podset-system}), against the
 * testkit's fake API server in this JVM, whose request journal names the operator's requests by its
 * user agent. kubectl drives the seed's walk-through plus the paths that write differently (an
 * image change rolled in place, pod creations refused by the server, deletion), then the operator
 * stops on SIGTERM. Every (verb, group, resource, subresource, namespace) the operator used must be
 * granted to its ServiceAccount by {@code deploy/rbac}, and every permission granted must have been
 * used.
 *
 * <p>The same run checks that the operator's client does not retry inside fabric8 ({@link
 * OperatorRun#identify}): each pod creation refused with 503 fails one reconcile, and the
 * controller's backoff schedules the next attempt.
 *
 * <p>In the playground ({@code podset-playground}) the API server lives inside the operator's
 * process, out of the test's reach; this run uses the product jar against a server the test owns.
 */
class OperatorRbacIT {

  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final String SYSTEM = "podset-system";
  private static final String SERVICE_ACCOUNT = "podset-operator";
  // The jar's user agent is podset-operator/<version>; kubectl's and the test's differ.
  private static final String OPERATOR = "podset-operator/";
  private static final String EXAMPLE =
      """
      apiVersion: app.example.com/v1alpha1
      kind: PodSet
      metadata:
        name: example-podset
      spec:
        replicas: 3
      """;

  @TempDir Path dir;
  private FakeApiServer server;
  private Process operator;
  private Path log;
  private Kubectl kubectl;
  private int metricsPort;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = FakeApiServer.builder().kubelet().start();
    server.installCrds(DEPLOY.resolve("crds/podsets.app.example.com-v1.yml"));
    server
        .client()
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(SYSTEM).endMetadata().build())
        .create();
    Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    kubectl = new Kubectl(kubeconfig);
    Path jar = Path.of("target", "podset-operator.jar");
    assertThat(jar).as("the packaged operator (run in the integration-test phase)").exists();
    log = dir.resolve("operator.log");
    int healthPort = freePort();
    metricsPort = freePort();
    operator =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--leader-elect",
                "--lease-namespace",
                SYSTEM,
                "--health-port",
                Integer.toString(healthPort),
                "--metrics-port",
                Integer.toString(metricsPort))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    awaitTrue("the operator to be ready", () -> status(healthPort, "/readyz") == 200);
  }

  @AfterEach
  void stop() {
    if (operator != null && operator.isAlive()) {
      operator.destroyForcibly();
    }
    server.close();
  }

  @Test
  void rbacGrantsExactlyWhatTheOperatorUses() throws Exception {
    kubectl.run(EXAMPLE, "create", "-f", "-");
    awaitTrue("3/3 ready", () -> ready(3));
    kubectl.run(null, "scale", "ps", "example-podset", "--replicas=5");
    awaitTrue("5/5 ready", () -> ready(5));

    // A pod deleted behind the operator's back: the PodSet is confirmed live (get), then the pod
    // is replaced.
    String victim = pods().get(0).getMetadata().getName();
    kubectl.run(null, "delete", "pod", victim);
    awaitTrue(
        "the deleted pod replaced",
        () -> ready(5) && pods().stream().noneMatch(p -> p.getMetadata().getName().equals(victim)));

    // An image change is rolled into the pods in place (pod patches).
    Set<String> uids = podUids();
    kubectl.run(
        null,
        "patch",
        "ps",
        "example-podset",
        "--type=merge",
        "-p",
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"busybox\","
            + "\"image\":\"busybox:1.36\",\"command\":[\"sleep\",\"3600\"]}]}}}}");
    awaitTrue(
        "all pods on busybox:1.36",
        () ->
            pods().stream()
                .allMatch(
                    p -> p.getSpec().getContainers().get(0).getImage().equals("busybox:1.36")));
    assertThat(podUids()).as("patched in place, not replaced").isEqualTo(uids);
    awaitTrue("5/5 updated and ready", () -> ready(5) && status().updatedReplicas() == 5);

    // Pod creations refused by the server: FailedCreate events (repeats aggregated), retries.
    FaultInjector.Handle unavailable =
        server
            .faults()
            .add(FaultRule.match().verbs("create").resource("pods").inject(Fault.serverError(503)));
    kubectl.run(null, "scale", "ps", "example-podset", "--replicas=6");
    RequestMatcher refused =
        RequestMatcher.verb("create").resource("pods").status(503).userAgentContaining(OPERATOR);
    awaitTrue("4 refused pod creations", () -> server.journal().count(refused) >= 4);
    awaitTrue("a FailedCreate event", () -> failedCreateCount() > 0);
    int counted = failedCreateCount();
    awaitTrue("later repeats counted on it", () -> failedCreateCount() > counted);
    unavailable.remove();
    awaitTrue("6/6 ready", () -> ready(6));
    // No retries inside the client: each refused create failed one reconcile, which the
    // controller retried with its backoff (fabric8's default would have sent each up to 11 times).
    int refusedCreates = server.journal().count(refused);
    assertThat(reconcileErrors())
        .as("failed reconciles for %d refused creates", refusedCreates)
        .isGreaterThanOrEqualTo(refusedCreates);

    kubectl.run(null, "scale", "ps", "example-podset", "--replicas=2");
    awaitTrue(
        "2 pods",
        () ->
            pods().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).count()
                == 2);

    kubectl.run(null, "delete", "ps", "example-podset");
    awaitTrue("its pods gone", () -> pods().isEmpty());

    operator.destroy(); // SIGTERM: graceful shutdown releases the Lease
    assertThat(operator.waitFor(40, TimeUnit.SECONDS)).as("exit on SIGTERM").isTrue();

    List<RequestRecord> requests =
        server.journal().records(RequestMatcher.any().userAgentContaining(OPERATOR));
    assertThat(requests).as("the operator's requests").isNotEmpty();
    // tag::rbac[]
    RbacGrants grants = RbacGrants.read(DEPLOY.resolve("rbac"), SERVICE_ACCOUNT, SYSTEM);
    RbacGrants.Check check = grants.check(requests);
    assertThat(check.refused()).as("requests deploy/rbac does not allow").isEmpty();
    assertThat(check.unused()).as("grants never used; used: %s", check.used()).isEmpty();
    // end::rbac[]
    assertThat(grants.granted())
        .as("wildcards in deploy/rbac")
        .noneMatch(g -> g.toString().contains("*"));
  }

  /** The example's status, read with the test's client (polling with kubectl would be slow). */
  private PodSetStatus status() {
    PodSet podSet =
        server
            .client()
            .resources(PodSet.class)
            .inNamespace("default")
            .withName("example-podset")
            .get();
    return podSet == null ? null : podSet.getStatus();
  }

  private boolean ready(int replicas) {
    PodSetStatus status = status();
    return status != null && status.replicas() == replicas && status.readyReplicas() == replicas;
  }

  private List<Pod> pods() {
    return server
        .client()
        .pods()
        .inNamespace("default")
        .withLabel("app.example.com/podset", "example-podset")
        .list()
        .getItems();
  }

  /** The count of the FailedCreate Event (0 while there is none). */
  private int failedCreateCount() {
    return server.client().v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> "FailedCreate".equals(e.getReason()))
        .mapToInt(e -> e.getCount() == null ? 1 : e.getCount())
        .max()
        .orElse(0);
  }

  private Set<String> podUids() {
    return pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  private double reconcileErrors() {
    String metrics = get(metricsPort, "/metrics").body();
    Matcher m =
        Pattern.compile(
                "^controller_runtime_reconcile_errors_total\\{[^}]*controller=\"podset\"[^}]*}\\s+(\\S+)$",
                Pattern.MULTILINE)
            .matcher(metrics);
    assertThat(m.find()).as("controller_runtime_reconcile_errors_total in\n" + metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** The status of a GET, or -1 while nothing listens. */
  private int status(int port, String path) {
    try {
      return get(port, path).statusCode();
    } catch (IllegalStateException notListening) {
      return -1;
    }
  }

  private HttpResponse<String> get(int port, String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("GET " + path + " on port " + port + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void awaitTrue(String what, BooleanSupplier condition) {
    new OperatorProcess(operator, log).await(what, condition);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
