/**
 * The top of the server: the router from request paths to the reads, writes, watches and
 * subresources of each resource, the discovery documents (plain and aggregated v2) and the OpenAPI
 * routes with the real server's HTTP caching (the documents come from {@code internal.openapi}). It
 * uses every room below it; nothing in the rooms uses it.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.routes;
