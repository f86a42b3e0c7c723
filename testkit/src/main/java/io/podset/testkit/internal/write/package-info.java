/**
 * Writes: create, update, patch (JSON, merge, strategic merge, server-side apply with managed
 * fields), delete with options and finalizers, the scale subresource and field validation.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.write;
