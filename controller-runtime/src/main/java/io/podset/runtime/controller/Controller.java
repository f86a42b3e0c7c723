package io.podset.runtime.controller;

import java.time.Duration;

/**
 * A running control loop for one primary resource.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #close()}. Thread-safe.
 */
public interface Controller extends AutoCloseable {

  /** The controller's unique name, used in logs and metric tags. */
  String name();

  /**
   * Starts the informers this controller watches, waits until their caches are synced, then starts
   * the workers. Returns once the workers run.
   *
   * @throws CacheSyncTimeoutException if the caches did not sync within the configured timeout; the
   *     message names each unsynced informer and its last error
   * @throws IllegalStateException if already started or closed
   */
  void start();

  /** True between a successful {@link #start()} and {@link #close()}. */
  boolean isRunning();

  /** Worker threads currently inside a reconcile. */
  int activeWorkers();

  /**
   * Stops taking new requests, waits up to {@code timeout} for in-flight reconciles to finish, then
   * stops the workers.
   *
   * @return true if every in-flight reconcile finished in time
   */
  boolean shutdown(Duration timeout);

  /** {@link #shutdown(Duration)} with a 30-second timeout. */
  @Override
  void close();
}
