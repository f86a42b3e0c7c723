package io.podset.playground;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.operator.cli.Main;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The playground's command line: an embedded cluster, the operator running against it in this JVM
 * through its own command line ({@link Main#execute}), and the seed's example.
 *
 * <p>Shutdown (Ctrl-C, or {@code --exit-when-settled}) goes through the JVM's shutdown hooks: the
 * operator's hook closes its manager, and the playground's hook waits for the operator to return
 * before it stops the API server, so the operator never talks to a server that is gone.
 */
@Command(
    name = "podset-playground",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description =
        "Runs the PodSet operator against an in-process fake API server with a simulated kubelet,"
            + " creates the seed's example PodSet (replicas: 3) and stays up for kubectl.")
final class Playground implements Callable<Integer> {

  private static final long OPERATOR_STOP_SECONDS = 40;

  @Option(
      names = "--kubeconfig-out",
      description = "Where to write the kubeconfig for kubectl. Default: a temporary file.")
  Path kubeconfigOut;

  @Option(
      names = "--demo",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Create the seed's example PodSet and show its progress. Default: on.")
  boolean demo;

  @Option(
      names = "--health-port",
      defaultValue = "8081",
      description = "The operator's /healthz and /readyz port, 0 disables. Default: 8081.")
  int healthPort;

  @Option(
      names = "--metrics-port",
      defaultValue = "8080",
      description = "The operator's /metrics port, 0 disables. Default: 8080.")
  int metricsPort;

  @Option(
      names = "--exit-when-settled",
      hidden = true,
      description = "Exit 0 once the example is ready (for tests and scripts).")
  boolean exitWhenSettled;

  /** Parses the command line, runs the playground and exits with its status. */
  public static void main(String[] args) {
    CommandLine commandLine = new CommandLine(new Playground());
    System.exit(commandLine.execute(args));
  }

  @Override
  public Integer call() {
    if (exitWhenSettled && !demo) {
      System.err.println("podset-playground: --exit-when-settled needs the demo (drop --no-demo)");
      return 2;
    }
    EmbeddedCluster cluster;
    try {
      cluster = EmbeddedCluster.start(kubeconfigPath());
    } catch (RuntimeException e) {
      System.err.println("podset-playground: " + e.getMessage());
      return 1;
    }
    System.out.println("Embedded API server: " + cluster.url());
    System.out.println("Kubeconfig written to " + cluster.kubeconfig());
    System.out.println("  kubectl --kubeconfig " + cluster.kubeconfig() + " get podsets");
    CompletableFuture<Integer> operator = startOperator(cluster);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> stop(operator, cluster), "podset-playground-shutdown"));
    if (demo) {
      boolean settled;
      try (KubernetesClient client =
          new KubernetesClientBuilder().withConfig(cluster.clientConfig()).build()) {
        settled = new Demo(client, System.out, () -> !operator.isDone()).run();
      }
      if (exitWhenSettled || !settled) {
        return settled ? 0 : 1;
      }
      System.out.println("Press Ctrl-C to stop.");
    }
    return operator.join();
  }

  private Path kubeconfigPath() {
    if (kubeconfigOut != null) {
      return kubeconfigOut;
    }
    try {
      return Files.createTempFile("podset-playground-", ".kubeconfig");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a kubeconfig file: " + e.getMessage(), e);
    }
  }

  /** The operator's own command line against the cluster's kubeconfig, on its own thread. */
  private CompletableFuture<Integer> startOperator(EmbeddedCluster cluster) {
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--kubeconfig", cluster.kubeconfig().toString()));
    args.addAll(List.of("--health-port", Integer.toString(healthPort)));
    args.addAll(List.of("--metrics-port", Integer.toString(metricsPort)));
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                exit.complete(Main.execute(args.toArray(String[]::new)));
              } catch (Throwable e) {
                exit.completeExceptionally(e);
              }
            },
            "podset-operator-main");
    thread.start();
    return exit;
  }

  private static void stop(CompletableFuture<Integer> operator, EmbeddedCluster cluster) {
    try {
      operator.get(OPERATOR_STOP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      System.err.println("podset-playground: the operator did not stop cleanly: " + e);
    } finally {
      cluster.close();
    }
  }
}
