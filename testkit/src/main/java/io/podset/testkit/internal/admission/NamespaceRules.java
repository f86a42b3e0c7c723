package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.NameRule;
import io.podset.testkit.internal.resource.TypeRules;

/**
 * Namespaces: DNS-1123 label names, the {@code kubernetes.io/metadata.name} label (the name, on
 * every write), {@code status.phase: Active} and the {@code kubernetes} finalizer in {@code
 * spec.finalizers} on creation.
 */
public enum NamespaceRules implements TypeRules {
  INSTANCE;

  /** The namespace finalizer (in {@code spec.finalizers}) of the namespace controller. */
  private static final String FINALIZER = "kubernetes";

  @Override
  public void prepareForCreate(ObjectNode object) {
    Json.child(object, "status").put("phase", "Active");
    ObjectNode spec = Json.child(object, "spec");
    if (!spec.has("finalizers")) {
      spec.putArray("finalizers").add(FINALIZER);
    }
  }

  @Override
  public void applyDefaults(ObjectNode object) {
    String name = Json.name(object);
    if (name != null && !name.isEmpty()) {
      Json.child(Json.metadata(object), "labels").put("kubernetes.io/metadata.name", name);
    }
  }

  @Override
  public NameRule nameRule() {
    return NameRule.LABEL;
  }
}
