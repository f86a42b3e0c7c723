/**
 * A real Kubernetes control plane for tests, as controller-runtime's envtest: {@link
 * io.podset.testkit.envtest.RealApiServer} runs {@code etcd}, {@code kube-apiserver} and optionally
 * {@code kube-controller-manager} as child processes on loopback, with RBAC, ServiceAccount tokens
 * and CRDs; {@link io.podset.testkit.envtest.RealApiServerExtension} runs one for a JUnit 5 test.
 *
 * <p>The binaries are built from Go modules by {@code testkit/kube/build-control-plane.sh} into a
 * cache directory outside the repository; {@link io.podset.testkit.envtest.ControlPlaneBinaries}
 * finds them.
 *
 * <p>What differs from a cluster: no kubelet, scheduler or cloud controllers run, so pods stay
 * {@code Pending} unless a test writes their status; only the controllers the test asks for run in
 * the controller manager (garbage collector and namespace controller by default); the {@code
 * ServiceAccount} admission plugin is off, so pods get no default ServiceAccount or token volume;
 * etcd runs without fsync.
 */
package io.podset.testkit.envtest;
