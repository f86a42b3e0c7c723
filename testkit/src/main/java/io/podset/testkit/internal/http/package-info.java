/**
 * The HTTP side of the fake API server and the fault proxy: the Vert.x servers and front end
 * (chunked and WebSocket watches), the request pipeline and its filter contract, request parsing
 * into verbs and resources, the router from paths to handlers, discovery and OpenAPI documents, and
 * the protobuf request bodies.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.http;
