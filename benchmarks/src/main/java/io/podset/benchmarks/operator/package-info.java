/**
 * Operator macro benchmarks (issue 10, benchmarks 3 and 4): converging 1000 PodSets, and the
 * latency from an object's update to the start of its reconcile, for our runtime and its peers.
 *
 * <p>Each run has two JVMs: a server JVM ({@link io.podset.benchmarks.operator.ConvergeServer},
 * {@link io.podset.benchmarks.operator.LatencyServer}) holding the testkit's fake API server and
 * the driver that writes the objects and measures, and a contender JVM ({@link
 * io.podset.benchmarks.operator.ConvergeContender}, {@link
 * io.podset.benchmarks.operator.LatencyContender}) running one contender against it. The contender
 * says it is ready by creating the ConfigMap {@value io.podset.benchmarks.operator.Control#READY}
 * in namespace {@code default} with its name in {@code data.contender}.
 */
package io.podset.benchmarks.operator;
