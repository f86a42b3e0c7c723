package io.podset.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Secrets: {@code type} defaults to {@code Opaque}. */
enum SecretRules implements TypeRules {
  INSTANCE;

  @Override
  public void applyDefaults(ObjectNode object) {
    if (!object.hasNonNull("type")) {
      object.put("type", "Opaque");
    }
  }
}
