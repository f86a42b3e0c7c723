package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;

/**
 * An event on a watch: an object was added, modified or deleted, or a bookmark moved the
 * resourceVersion forward without a change.
 *
 * @param <T> the watched type
 */
public sealed interface WatchEvent<T extends HasMetadata>
    permits WatchEvent.Added, WatchEvent.Modified, WatchEvent.Deleted, WatchEvent.Bookmark {

  /** The bookmark annotation that ends the initial events of a streaming list. */
  String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

  /** The resourceVersion this event brings the watch to. */
  String resourceVersion();

  /**
   * An ADDED event.
   *
   * @param object the new object
   */
  record Added<T extends HasMetadata>(T object) implements WatchEvent<T> {
    /** Rejects a null object. */
    public Added {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String resourceVersion() {
      return object.getMetadata().getResourceVersion();
    }
  }

  /**
   * A MODIFIED event.
   *
   * @param object the object's new state
   */
  record Modified<T extends HasMetadata>(T object) implements WatchEvent<T> {
    /** Rejects a null object. */
    public Modified {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String resourceVersion() {
      return object.getMetadata().getResourceVersion();
    }
  }

  /**
   * A DELETED event.
   *
   * @param object the object's final state
   */
  record Deleted<T extends HasMetadata>(T object) implements WatchEvent<T> {
    /** Rejects a null object. */
    public Deleted {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String resourceVersion() {
      return object.getMetadata().getResourceVersion();
    }
  }

  /**
   * A BOOKMARK event.
   *
   * @param resourceVersion the version the watch has reached
   * @param annotations the bookmark object's annotations (empty when none)
   */
  record Bookmark<T extends HasMetadata>(String resourceVersion, Map<String, String> annotations)
      implements WatchEvent<T> {
    /** Copies the annotations. */
    public Bookmark {
      Objects.requireNonNull(resourceVersion, "resourceVersion");
      annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** Whether this bookmark ends the initial events of a streaming list. */
    public boolean endsInitialEvents() {
      return "true".equals(annotations.get(INITIAL_EVENTS_END));
    }
  }
}
