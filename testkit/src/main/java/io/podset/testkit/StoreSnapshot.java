package io.podset.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;

/**
 * Every object of a {@link FakeApiServer} at one revision, for branching scenarios: take one,
 * explore a path, {@link FakeApiServer#restore restore} it and explore another. Immutable.
 */
public final class StoreSnapshot {

  private final long resourceVersion;
  private final Map<String, Map<String, ObjectNode>> objects;

  StoreSnapshot(long resourceVersion, Map<String, Map<String, ObjectNode>> objects) {
    this.resourceVersion = resourceVersion;
    this.objects = Objects.requireNonNull(objects, "objects");
  }

  /** The revision the snapshot was taken at. */
  public long resourceVersion() {
    return resourceVersion;
  }

  /** How many objects it holds. */
  public int size() {
    return objects.values().stream().mapToInt(Map::size).sum();
  }

  Map<String, Map<String, ObjectNode>> objects() {
    return objects;
  }

  @Override
  public String toString() {
    return "StoreSnapshot[rv=" + resourceVersion + ", objects=" + size() + "]";
  }
}
