/**
 * What runs beside the API server in a cluster, emulated on commit: the garbage collector and
 * namespace controller (owner references, orphan and foreground deletion, a terminating namespace
 * emptied), the CRD controller (a definition served at once, its objects deleted with it) and the
 * simulated kubelet (pod stages on the server's clock).
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.controllers;
