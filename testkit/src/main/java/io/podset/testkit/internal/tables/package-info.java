/**
 * Server-side printing: the {@code Table} answers ({@code kubectl get}, {@code -w}) with the
 * columns kube-apiserver prints for each built-in kind and for custom resources.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.tables;
