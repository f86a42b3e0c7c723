/**
 * Writes through the fabric8 client that read back only what a controller uses of the answer.
 *
 * <p>{@link io.podset.runtime.client.ObjectWriter} creates and patches objects through the client's
 * own HTTP client (so its interceptors, authentication, retries and timeouts apply) and decodes
 * only the written object's identity and resourceVersion from the answer, where fabric8's typed
 * operations decode the whole object: in the converge benchmark the typed create and patch paths
 * (URL building, a copy of the object, the decoding of the answer) were the largest part of the
 * operator's CPU after the informers. {@link io.podset.runtime.client.ApiFailures} turns a refused
 * answer on such a path into the {@code KubernetesClientException} (code and server Status) the
 * typed operations throw.
 *
 * <p>{@link io.podset.runtime.client.KubernetesClients#builder()} is the client builder of the
 * clients the runtime builds itself (the manager's own, the fenced one): in a JVM without C2, with
 * fabric8's default Vert.x HTTP client, their TLS offers ChaCha20-Poly1305 before AES-GCM, which
 * the JDK runs fast only with C2's intrinsics.
 */
@NullMarked
package io.podset.runtime.client;

import org.jspecify.annotations.NullMarked;
