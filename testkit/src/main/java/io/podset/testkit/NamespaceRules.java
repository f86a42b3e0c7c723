package io.podset.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Namespaces: DNS-1123 label names, {@code status.phase: Active} on creation. */
enum NamespaceRules implements TypeRules {
  INSTANCE;

  @Override
  public void prepareForCreate(ObjectNode object) {
    Json.child(object, "status").put("phase", "Active");
  }

  @Override
  public NameRule nameRule() {
    return NameRule.LABEL;
  }
}
