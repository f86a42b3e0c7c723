package io.podset.testkit;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one Vert.x instance of the JVM's fake API servers: two event loops (daemon threads, so a test
 * JVM never waits for them) and a worker pool, created by the first server and shared by every
 * later one.
 */
final class SharedVertx {

  private static final Object LOCK = new Object();
  // Guarded by LOCK.
  private static @Nullable Vertx vertx;

  private SharedVertx() {}

  static Vertx get() {
    synchronized (LOCK) {
      if (vertx == null) {
        vertx =
            Vertx.vertx(
                new VertxOptions()
                    .setUseDaemonThread(true)
                    .setEventLoopPoolSize(2)
                    .setWorkerPoolSize(16)
                    .setBlockedThreadCheckInterval(TimeUnit.SECONDS.toMillis(10)));
      }
      return vertx;
    }
  }
}
