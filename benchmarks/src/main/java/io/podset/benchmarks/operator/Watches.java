package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Watchable;
import java.util.function.BiConsumer;

/** Plain fabric8 watches (no informer) for the drivers, their warm-ups and the floor. */
final class Watches {

  private Watches() {}

  /**
   * Starts watching {@code source}, handing each event to {@code handler}; a watch that ends with a
   * failure is reported on standard error as {@code who}'s.
   */
  static <T> Watch start(Watchable<T> source, String who, BiConsumer<Watcher.Action, T> handler) {
    return source.watch(
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, T resource) {
            handler.accept(action, resource);
          }

          @Override
          public void onClose(WatcherException cause) {
            if (cause != null) {
              System.err.println(who + ": watch closed: " + cause);
            }
          }
        });
  }
}
