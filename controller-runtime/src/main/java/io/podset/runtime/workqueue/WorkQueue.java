package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.Optional;

/**
 * A FIFO of keys with client-go's "dirty" and "processing" sets, shared by producers (event
 * handlers) and workers.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>A key is handed out at most once at a time: between {@link #get()} returning it and {@link
 *       #done(Object)} no other worker receives it.
 *   <li>Adding a key that is waiting to be handed out ("dirty") is a no-op: repeated adds coalesce.
 *   <li>Adding a key while it is being processed marks it dirty; {@link #done(Object)} then queues
 *       it again, so every add is followed by a processing that starts after it.
 *   <li>Keys are handed out in the order they were first queued.
 * </ul>
 *
 * <p>Keys are compared with {@code equals}/{@code hashCode} and must be immutable. Null keys are
 * rejected with a {@link NullPointerException}. All methods are thread-safe.
 *
 * @param <K> the key type, typically an object reference such as {@code namespace/name}
 */
public interface WorkQueue<K> extends AutoCloseable {

  /**
   * Marks {@code key} as needing processing. A no-op if it already waits to be handed out, or once
   * the queue is shutting down; if the key is being processed, it is queued again on {@link
   * #done(Object)}.
   */
  void add(K key);

  /**
   * Waits for a key and hands it to the caller, who must call {@link #done(Object)} when finished.
   *
   * @return the key, or empty once the queue is shut down and has nothing left to hand out
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  Optional<K> get() throws InterruptedException;

  /**
   * Like {@link #get()} but waits at most {@code timeout}, measured on the queue's clock. A zero or
   * negative timeout never waits.
   *
   * @return the key, or empty on timeout or once the queue is shut down and has nothing left
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  Optional<K> poll(Duration timeout) throws InterruptedException;

  /**
   * Tells the queue that processing of {@code key} finished; if the key was added meanwhile it is
   * queued again.
   *
   * @throws IllegalStateException if {@code key} is not being processed (for example a second
   *     {@code done} for the same {@code get})
   */
  void done(K key);

  /** The number of keys waiting to be handed out (not counting keys being processed). */
  int len();

  /**
   * Shuts the queue down at once: waiting keys are dropped, later adds are ignored, and {@link
   * #get()} returns empty to every current and future caller. Keys being processed stay so until
   * their {@link #done(Object)}, which no longer re-queues them. Idempotent.
   */
  void shutDown();

  /**
   * Stops accepting adds, lets workers take the keys still waiting, and blocks until every key
   * handed out is done. Keys being processed that were added again are still re-queued and
   * processed. Returns early, with the thread's interrupt flag set, if the caller is interrupted,
   * and returns when {@link #shutDown()} is called meanwhile.
   */
  void shutDownWithDrain();

  /**
   * Like {@link #shutDownWithDrain()} but waits at most {@code timeout} on the queue's clock.
   *
   * @return true when the queue drained, false on timeout or interruption (the queue stays shut
   *     down for adds; call {@link #shutDown()} to drop what is left)
   */
  boolean shutDownWithDrain(Duration timeout);

  /** True once {@link #shutDown()} or {@link #shutDownWithDrain()} was called. */
  boolean isShuttingDown();

  /** Same as {@link #shutDown()}. */
  @Override
  void close();
}
