/**
 * The wire form of a watch: the serialized frame of one watch event, built once and shared by every
 * watch that sends it, and the sink contract a transport (chunked HTTP, WebSocket) implements to
 * carry frames. Imports no other room; the watch sessions that choose the frames are in {@code
 * read}.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.watch;
