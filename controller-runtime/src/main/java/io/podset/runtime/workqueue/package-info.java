/**
 * Work queues that decouple event handlers from reconcile workers, with client-go's semantics.
 *
 * <p>A {@link io.podset.runtime.workqueue.WorkQueue} holds keys, not events: a key that is added
 * several times before a worker picks it up is handed out once ("dirty" set), and a key is never
 * handed to two workers at once ("processing" set): a key added while it is being processed is
 * queued again when the worker calls {@code done}. {@link
 * io.podset.runtime.workqueue.DelayingQueue} adds keys after a delay measured on an injected {@link
 * io.podset.runtime.time.Clock} (the earliest deadline wins), and {@link
 * io.podset.runtime.workqueue.RateLimitingQueue} asks a {@link
 * io.podset.runtime.workqueue.RateLimiter} for that delay so failing keys back off.
 *
 * <p>Queues are built by {@link io.podset.runtime.workqueue.WorkQueues#builder()}; limiters come
 * from {@link io.podset.runtime.workqueue.RateLimiters}. With a Micrometer registry, a named queue
 * publishes controller-runtime's {@code workqueue_*} metrics, tagged {@code name}; without one it
 * pays nothing for metrics (no clock reads, no meter calls).
 *
 * <p>All types here are thread-safe. Each queue guards its state with one lock, except that the
 * common {@code done} (of a key not added meanwhile) takes none: it marks the key idle with a
 * compare-and-set (see {@code FifoWorkQueue}). Limiters use one lock each.
 */
@NullMarked
package io.podset.runtime.workqueue;

import org.jspecify.annotations.NullMarked;
