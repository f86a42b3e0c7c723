/**
 * The store: objects by resource and key under one global resourceVersion, its change history and
 * commit listeners, snapshots, and the label and field selectors. The reads that answer requests
 * from it are in {@code read}.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.store;
