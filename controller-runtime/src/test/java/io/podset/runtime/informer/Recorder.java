package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.event.Event;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A handler that records what it is told as {@code add:name@rv} strings. */
class Recorder implements ResourceEventHandler<Pod> {

  final List<String> events = new CopyOnWriteArrayList<>();

  private static String id(Pod pod) {
    return pod.getMetadata().getName() + "@" + pod.getMetadata().getResourceVersion();
  }

  @Override
  public void onEvent(Event<Pod> event) {
    events.add(describe(event));
  }

  static String describe(Event<Pod> event) {
    if (event instanceof Event.Updated<Pod> update) {
      return "update:" + id(update.oldObject()) + "->" + id(update.object());
    }
    if (event instanceof Event.Deleted<Pod> delete) {
      return (delete.finalStateUnknown() ? "tombstone:" : "delete:") + id(delete.object());
    }
    return "add:" + id(event.object());
  }

  void awaitCount(int n) {
    Awaits.until(() -> events.size() >= n, n + " events, have " + events);
  }
}
