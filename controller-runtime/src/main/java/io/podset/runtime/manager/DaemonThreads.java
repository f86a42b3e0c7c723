package io.podset.runtime.manager;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** Executors of named daemon threads: none of the manager's threads keeps the JVM alive. */
final class DaemonThreads {

  private DaemonThreads() {}

  /** One thread, running tasks in order. */
  static ExecutorService single(String name) {
    return Executors.newSingleThreadExecutor(named(name));
  }

  /** A thread per task at a time, reused when idle. */
  static ExecutorService cached(String name) {
    return Executors.newCachedThreadPool(named(name));
  }

  private static ThreadFactory named(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
