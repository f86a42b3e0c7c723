/**
 * The Kubernetes API's protobuf schema ({@link io.podset.runtime.protobuf.KubernetesProtobuf}): the
 * descriptors of the built-in kinds, for the informers' protobuf watches and the testkit's server.
 * Not an API for operators: it may change with any release.
 */
@NullMarked
package io.podset.runtime.protobuf;

import org.jspecify.annotations.NullMarked;
