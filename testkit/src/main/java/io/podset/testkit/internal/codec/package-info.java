/**
 * Request bodies in Kubernetes protobuf: the 1.34 {@code generated.proto} schemas (message types,
 * pointer and inline fields) and their decoding into the JSON the API server would store, with Go
 * durations. Writes decode bodies with it; field validation reads which fields a built-in kind
 * declares from its schemas.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.codec;
