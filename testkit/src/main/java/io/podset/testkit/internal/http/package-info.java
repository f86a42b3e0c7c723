/**
 * The HTTP side of the fake API server and the fault proxy, below the handlers: a request and its
 * answer as handlers see them ({@code ApiRequest}, {@code ApiResult}), request parsing into verbs
 * and resources, the request pipeline and its filter contract, the Vert.x front end (chunked and
 * WebSocket watches), and the kubeconfig files clients of the servers and proxies read. The routes
 * from paths to handlers are in {@code routes}.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.http;
