package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.testkit.envtest.RealApiServer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The operator run in this JVM through its real entry point ({@link Main#execute}) with the
 * arguments of {@code deploy/operator.yaml}, authenticated as its ServiceAccount {@code
 * podset-system/podset-operator} (so RBAC is enforced), for end-to-end tests on a real
 * kube-apiserver. {@link #close()} stops it as SIGTERM would and checks that it stopped.
 */
final class InProcessOperator implements AutoCloseable {

  static final String NAMESPACE = "podset-system";
  static final String SERVICE_ACCOUNT = "podset-operator";

  private final Thread thread;

  private InProcessOperator(Thread thread) {
    this.thread = thread;
  }

  /**
   * Starts the operator once {@code deploy/rbac} is applied on {@code server}; first checks that
   * its token is a restricted identity.
   *
   * @param kubeconfig where to write the ServiceAccount's kubeconfig
   */
  static InProcessOperator start(RealApiServer server, Path kubeconfig) {
    server.writeKubeconfig(kubeconfig, NAMESPACE, SERVICE_ACCOUNT);
    assertThatThrownBy(
            () ->
                server
                    .serviceAccountClient(NAMESPACE, SERVICE_ACCOUNT)
                    .secrets()
                    .inNamespace("default")
                    .list())
        .as("the operator's token is a restricted identity")
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    Thread thread =
        new Thread(
            () ->
                Main.execute(
                    "--kubeconfig=" + kubeconfig,
                    "--leader-elect",
                    "--lease-namespace=" + NAMESPACE,
                    "--health-port=0",
                    "--metrics-port=0"),
            "podset-operator-e2e");
    thread.start();
    return new InProcessOperator(thread);
  }

  /** Interrupts the operator (its shutdown path) and waits up to 30 s for it to stop. */
  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(thread.isAlive()).as("operator stopped").isFalse();
  }
}
