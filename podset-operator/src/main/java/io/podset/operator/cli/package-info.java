/**
 * The operator's command line: {@code podset-operator [options]}.
 *
 * <p>Runs the PodSet controller under a {@link io.podset.runtime.manager.Manager} against the
 * cluster of the kubeconfig (or in-cluster configuration). Trying it without a cluster is the
 * {@code podset-playground} module's job, which runs this command in-process against the testkit's
 * fake API server; this module has no test code on its runtime class path.
 */
package io.podset.operator.cli;
