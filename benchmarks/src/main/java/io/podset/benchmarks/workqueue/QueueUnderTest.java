package io.podset.benchmarks.workqueue;

import java.time.Duration;
import java.util.List;

/**
 * The operations the work-queue benchmarks need, over one contender. Each benchmark JVM uses one
 * contender only, so calls through this interface stay monomorphic and are inlined.
 */
interface QueueUnderTest extends AutoCloseable {

  /** The contender names, as {@link #create(String)} accepts them. */
  List<String> CONTENDERS = List.of("ours", "client-java", "lbq");

  /** Adds a key for processing. */
  void add(String key);

  /** Blocks for a key; null once the queue is shut down and empty. */
  String get() throws InterruptedException;

  /** Ends the processing of a key that {@link #get()} returned. */
  void done(String key);

  /** Adds a key after a delay. */
  void addAfter(String key, Duration delay);

  /** Adds a key after the delay its rate limiter assigns. */
  void addRateLimited(String key);

  /** Keys waiting to be handed out. */
  int len();

  /** Shuts the queue down: blocked and later {@link #get()} calls return null. */
  @Override
  void close();

  /**
   * A new queue of the named contender.
   *
   * @throws IllegalArgumentException if {@code contender} is not one of {@link #CONTENDERS}
   */
  static QueueUnderTest create(String contender) {
    return switch (contender) {
      case "ours" -> new OurQueue();
      case "client-java" -> new ClientJavaQueue();
      case "lbq" -> new BlockingQueueCeiling();
      default ->
          throw new IllegalArgumentException(
              "contender must be one of " + CONTENDERS + ": '" + contender + "'");
    };
  }
}
