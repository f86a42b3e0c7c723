/**
 * Sync of a pod informer from the testkit's API server: our {@link
 * io.podset.runtime.informer.SharedInformer} (default options, so {@code managedFields} stripped)
 * against fabric8's {@code SharedIndexInformer} on each of its HTTP backends, as the first sync of
 * a fresh JVM and, in the same JVM afterwards, as the warm steady state ({@link WarmRounds}); what
 * decoding and projecting a pod costs ({@link io.podset.benchmarks.informer.ProjectedDecode}) and
 * projecting one alone ({@link io.podset.benchmarks.informer.ProjectionApply}, JMH).
 */
package io.podset.benchmarks.informer;
