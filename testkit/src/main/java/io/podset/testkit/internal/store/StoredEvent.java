package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.watch.WatchFrame;
import java.util.Objects;

/**
 * One committed change, kept in the store's history for watch resumption and consistent lists.
 * Objects are never mutated after they are stored; the watch event carrying the object's JSON is
 * computed once and shared by every watch that sends it and every GET that serves it.
 */
public final class StoredEvent {

  /** The kinds of change, spelled as in watch events. */
  public enum Type {
    ADDED,
    MODIFIED,
    DELETED
  }

  private final long resourceVersion;
  private final Type type;
  private final String storageKey;
  private final String key;
  private final ObjectNode object;
  private final ObjectNode previous;
  // Guarded by this: the watch event of this change's own type, computed on first use; the one
  // serialized form of the object kept (its JSON is read back out of it), so that a stored pod
  // keeps its bytes once, not as object, event line and buffer.
  private WatchFrame frame;

  /**
   * @param resourceVersion the revision of the change
   * @param type the change
   * @param storageKey where the object lives ({@code group/plural})
   * @param key {@code namespace/name} or {@code name}
   * @param object the new object; for DELETED the last state (with the deletion's revision)
   * @param previous the state before (null for ADDED)
   */
  StoredEvent(
      long resourceVersion,
      Type type,
      String storageKey,
      String key,
      ObjectNode object,
      ObjectNode previous) {
    this.resourceVersion = resourceVersion;
    this.type = Objects.requireNonNull(type, "type");
    this.storageKey = Objects.requireNonNull(storageKey, "storageKey");
    this.key = Objects.requireNonNull(key, "key");
    this.object = Objects.requireNonNull(object, "object");
    this.previous = previous;
  }

  public long resourceVersion() {
    return resourceVersion;
  }

  public Type type() {
    return type;
  }

  public String storageKey() {
    return storageKey;
  }

  public String key() {
    return key;
  }

  public ObjectNode object() {
    return object;
  }

  public ObjectNode previous() {
    return previous;
  }

  /** The serialized object (a copy of the bytes {@link #frame} keeps). */
  public byte[] objectJson() {
    return frame().object();
  }

  /**
   * The serialized object if it was serialized already (a watch sent this change, or a GET served
   * it), else null: a write's answer shares those bytes instead of serializing the object again,
   * without making every write keep its bytes when no watch needs them.
   */
  public synchronized byte[] objectJsonIfSerialized() {
    return frame == null ? null : frame.object();
  }

  /** The watch event {@code {"type":<this type>,"object":<objectJson>}}, shared by all watches. */
  public synchronized WatchFrame frame() {
    if (frame == null) {
      frame = WatchFrame.of(type.name(), Json.bytes(object));
    }
    return frame;
  }
}
