package io.podset.runtime.recorder;

import io.fabric8.kubernetes.api.model.Event;

/** Where aggregated events are written; separated from the recorder so tests can observe it. */
interface EventSink {

  /** Creates the Event; returns its name as stored. */
  String create(Event event);

  /**
   * Sets the count and last timestamp of an existing Event.
   *
   * @return false if the Event no longer exists (Events expire, by default after an hour)
   */
  boolean updateCount(String namespace, String name, int count, String lastTimestamp);
}
