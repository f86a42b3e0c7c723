/**
 * The operator's command line: {@code podset-operator [options]}.
 *
 * <p>Runs the PodSet controller under a {@link io.podset.runtime.manager.Manager} against the
 * cluster of the kubeconfig (or in-cluster configuration), or, with {@code --embedded}, against an
 * in-process fake API server with a simulated kubelet, for trying the operator without a cluster.
 */
package io.podset.operator.cli;
