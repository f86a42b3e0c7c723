/**
 * The read paths of a request: get and list from the store (snapshots, {@code limit} and {@code
 * continue}, {@code resourceVersion} and its match, selectors, Table rows), and watch sessions (one
 * per open watch: namespace and selectors, selector transitions as ADDED/DELETED, objects or Table
 * rows, bookmarks, the timeout).
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.read;
