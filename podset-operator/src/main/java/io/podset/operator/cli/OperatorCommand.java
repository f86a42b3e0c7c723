package io.podset.operator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line. Every option can also be set through the environment variable named in its
 * description; the command line wins.
 */
@Command(
    name = "podset-operator",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = "Runs the PodSet operator (app.example.com/v1alpha1 PodSet).",
    footer = {
      "",
      "Examples:",
      "  podset-operator --leader-elect   run against the current kubeconfig context",
      "  (to try it without a cluster, run the podset-playground module)"
    })
final class OperatorCommand implements Callable<Integer> {

  enum LogFormat {
    text,
    json
  }

  @Option(
      names = "--kubeconfig",
      defaultValue = "${env:PODSET_KUBECONFIG}",
      description =
          "Kubeconfig file (env PODSET_KUBECONFIG). Default: $KUBECONFIG, ~/.kube/config, then the"
              + " in-cluster service account.")
  Path kubeconfig;

  @Option(
      names = "--context",
      defaultValue = "${env:PODSET_CONTEXT}",
      description = "Kubeconfig context to use (env PODSET_CONTEXT). Default: the current one.")
  String context;

  @Option(
      names = {"-n", "--namespace"},
      split = ",",
      defaultValue = "${env:PODSET_NAMESPACES}",
      description =
          "Namespaces to watch, comma separated or repeated (env PODSET_NAMESPACES). Default: all.")
  List<String> namespaces = new ArrayList<>();

  @Option(
      names = "--workers",
      defaultValue = "${env:PODSET_WORKERS:-8}",
      description = "Concurrent reconciles (env PODSET_WORKERS). Default: ${DEFAULT-VALUE}.")
  int workers;

  @Option(
      names = "--leader-elect",
      negatable = true,
      defaultValue = "${env:PODSET_LEADER_ELECT:-false}",
      fallbackValue = "true",
      description = "Leader election on a Lease, for running replicas (env PODSET_LEADER_ELECT).")
  boolean leaderElect;

  @Option(
      names = "--lease-name",
      defaultValue = "${env:PODSET_LEASE_NAME:-podset-operator}",
      description = "Lease name (env PODSET_LEASE_NAME). Default: ${DEFAULT-VALUE}.")
  String leaseName;

  @Option(
      names = "--lease-namespace",
      defaultValue = "${env:PODSET_LEASE_NAMESPACE:-${env:POD_NAMESPACE:-default}}",
      description =
          "Lease namespace (env PODSET_LEASE_NAMESPACE, else POD_NAMESPACE). Default: ${DEFAULT-VALUE}.")
  String leaseNamespace;

  @Option(
      names = "--metrics-port",
      defaultValue = "${env:PODSET_METRICS_PORT:-8080}",
      description =
          "Port of /metrics, 0 disables (env PODSET_METRICS_PORT). Default: ${DEFAULT-VALUE}.")
  int metricsPort;

  @Option(
      names = "--health-port",
      defaultValue = "${env:PODSET_HEALTH_PORT:-8081}",
      description =
          "Port of /healthz and /readyz, 0 disables (env PODSET_HEALTH_PORT). Default: ${DEFAULT-VALUE}.")
  int healthPort;

  @Option(
      names = "--log-format",
      defaultValue = "${env:PODSET_LOG_FORMAT:-text}",
      description = "text or json (env PODSET_LOG_FORMAT). Default: ${DEFAULT-VALUE}.")
  LogFormat logFormat;

  @Option(
      names = "--log-level",
      defaultValue = "${env:PODSET_LOG_LEVEL:-info}",
      description =
          "trace, debug, info, warn or error (env PODSET_LOG_LEVEL). Default: ${DEFAULT-VALUE}.")
  String logLevel;

  @Option(
      names = "--insecure-skip-tls-verify",
      defaultValue = "${env:PODSET_INSECURE_SKIP_TLS_VERIFY:-false}",
      description =
          "Do not verify the API server's certificate (env PODSET_INSECURE_SKIP_TLS_VERIFY). Unsafe;"
              + " off by default.")
  boolean insecureSkipTlsVerify;

  @Override
  public Integer call() {
    return new OperatorRun(this).run();
  }
}
