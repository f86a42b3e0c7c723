/**
 * The playground: the PodSet operator on an in-process cluster, for trying it without one.
 *
 * <p>{@link io.podset.playground.Playground} starts the testkit's fake API server with a simulated
 * kubelet and the PodSet CRD, writes a kubeconfig for {@code kubectl}, runs the operator in the
 * same JVM through its own command line, and creates the seed article's example. It is a separate
 * module so that the operator's artifact and image carry no test code: only this module depends on
 * the testkit.
 */
package io.podset.playground;
