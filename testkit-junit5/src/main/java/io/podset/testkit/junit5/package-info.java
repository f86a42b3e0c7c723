/**
 * JUnit 5 extensions for the testkit, one annotation per environment, each starting a server per
 * test class (or per test method) and closing it when that scope ends, and resolving the server and
 * a {@code KubernetesClient} as test parameters:
 *
 * <ul>
 *   <li>{@link io.podset.testkit.junit5.WithFakeApiServer}: the testkit's fake API server ({@link
 *       io.podset.testkit.FakeApiServer}), milliseconds to start;
 *   <li>{@link io.podset.testkit.junit5.WithRealApiServer}: a real kube-apiserver and etcd ({@link
 *       io.podset.testkit.envtest.RealApiServer}), optionally kube-controller-manager;
 *   <li>{@link io.podset.testkit.junit5.WithSimulatedCluster}: a whole simulated cluster ({@link
 *       io.podset.testkit.envtest.SimulatedCluster}).
 * </ul>
 *
 * <p>A test that takes a {@code KubernetesClient} parameter runs in another environment by changing
 * its annotation. When the real control plane's binaries are missing, the last two skip their tests
 * with a message saying how to build them, unless {@link
 * io.podset.testkit.envtest.ControlPlaneBinaries#required()}; then they fail.
 *
 * <p>This artifact ({@code io.podset:testkit-junit5}) is the only one of the testkit that depends
 * on JUnit: the server, the harness and the launchers in {@code io.podset:testkit} work with any
 * test framework, or none.
 */
@NullMarked
package io.podset.testkit.junit5;

import org.jspecify.annotations.NullMarked;
