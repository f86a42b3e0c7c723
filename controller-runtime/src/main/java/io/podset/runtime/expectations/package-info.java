/**
 * Expectations: a controller's memory of its own writes that the cache has not shown yet.
 *
 * <p>Informer caches lag behind the API server. A reconciler that creates three pods and is run
 * again before the cache shows them would create three more. {@link
 * io.podset.runtime.expectations.Expectations} records what a reconcile is about to create and
 * delete; informer events lower the counts; while they are unmet the reconciler must not act on the
 * cache again. Beyond the ReplicaSet controller's design (event counts plus a 5-minute TTL), an
 * expectation is also met once the cache has observed the resourceVersion of every write it tracks,
 * so a missed or coalesced event cannot stall a key until the TTL.
 */
@NullMarked
package io.podset.runtime.expectations;

import org.jspecify.annotations.NullMarked;
