package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A handler that records what it is told as {@code add:name@rv} strings. */
class Recorder implements ResourceEventHandler<Pod> {

  final List<String> events = new CopyOnWriteArrayList<>();

  private static String id(Pod pod) {
    return pod.getMetadata().getName() + "@" + pod.getMetadata().getResourceVersion();
  }

  @Override
  public void onAdd(Pod obj) {
    events.add("add:" + id(obj));
  }

  @Override
  public void onUpdate(Pod oldObj, Pod newObj) {
    events.add("update:" + id(oldObj) + "->" + id(newObj));
  }

  @Override
  public void onDelete(Pod obj, boolean finalStateUnknown) {
    events.add((finalStateUnknown ? "tombstone:" : "delete:") + id(obj));
  }

  void awaitCount(int n) {
    Awaits.until(() -> events.size() >= n, n + " events, have " + events);
  }
}
