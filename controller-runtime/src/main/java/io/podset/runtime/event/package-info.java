/**
 * The change event: what an informer saw happen to one cached object ({@link
 * io.podset.runtime.event.Event}: added, updated, deleted).
 *
 * <p>One representation all the way from the informer's cache to a controller's queue: the informer
 * hands each {@link io.podset.runtime.informer.ResourceEventHandler} an {@code Event}, a
 * controller's filters ({@link io.podset.runtime.predicate}) judge that same {@code Event}, and its
 * {@link io.podset.runtime.handler.EventHandler}s map it to requests. Not to be confused with a
 * Kubernetes Event (the API object {@code kubectl get events} lists): those are written by {@link
 * io.podset.runtime.recorder}.
 */
@NullMarked
package io.podset.runtime.event;

import org.jspecify.annotations.NullMarked;
