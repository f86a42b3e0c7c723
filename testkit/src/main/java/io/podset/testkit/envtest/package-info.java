/**
 * Real Kubernetes control planes for tests, as controller-runtime's envtest and beyond it:
 *
 * <ul>
 *   <li>{@link io.podset.testkit.envtest.RealApiServer} runs {@code etcd}, {@code kube-apiserver}
 *       and optionally {@code kube-controller-manager} as child processes on loopback, with RBAC,
 *       ServiceAccount tokens and CRDs; {@code @WithRealApiServer} (testkit-junit5) runs one for a
 *       JUnit 5 test class.
 *   <li>{@link io.podset.testkit.envtest.SimulatedCluster} is a whole cluster: the same control
 *       plane with every default controller, {@code kube-scheduler}, and {@code kwok} playing the
 *       kubelet of fake nodes, so pods are scheduled and become Running and Ready;
 *       {@code @WithSimulatedCluster} (testkit-junit5) runs one for a test class.
 * </ul>
 *
 * <p>With the extensions of {@code io.podset.testkit.junit5}, a test that takes a {@code
 * KubernetesClient} parameter runs on the fake ({@code @WithFakeApiServer}), the real API server or
 * the simulated cluster by changing its annotation. Without JUnit, start one with {@link
 * io.podset.testkit.envtest.RealApiServer#builder()} and close it.
 *
 * <p>The binaries are built from Go modules by {@code testkit/kube/build-control-plane.sh} into a
 * cache directory outside the repository; {@link io.podset.testkit.envtest.ControlPlaneBinaries}
 * finds them.
 *
 * <p>What a {@code RealApiServer} differs in from a cluster: no kubelet, scheduler or cloud
 * controllers run, so pods stay {@code Pending} unless a test writes their status; only the
 * controllers the test asks for run in the controller manager (garbage collector and namespace
 * controller by default); the {@code ServiceAccount} admission plugin is off, so pods get no
 * default ServiceAccount or token volume; etcd runs without fsync. What a {@code SimulatedCluster}
 * differs in is listed on that type: no container runs.
 */
@NullMarked
package io.podset.testkit.envtest;

import org.jspecify.annotations.NullMarked;
