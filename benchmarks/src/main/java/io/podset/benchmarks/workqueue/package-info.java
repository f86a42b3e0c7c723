/**
 * Work-queue benchmarks: our {@link io.podset.runtime.workqueue.RateLimitingQueue}, client-java's
 * {@code DefaultRateLimitingQueue} and a bare {@link java.util.concurrent.LinkedBlockingQueue} (the
 * ceiling) through one adapter, {@link io.podset.benchmarks.workqueue.QueueUnderTest}; client-go's
 * queue runs the same scenarios in {@code benchmarks/go}.
 *
 * <p>Keys are strings like {@code default/name-N} everywhere. Every queue uses its library's
 * default controller rate limiter (per-key exponential 5 ms to 1000 s, and an overall bucket of 10
 * qps with a burst of 100).
 */
package io.podset.benchmarks.workqueue;
