package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.TypeRules;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Secrets: {@code type} defaults to {@code Opaque}; {@code stringData} is write-only, merged into
 * {@code data} (base64 of its UTF-8 bytes, its keys winning) on every write, as the core/v1
 * conversion does.
 */
public enum SecretRules implements TypeRules {
  INSTANCE;

  @Override
  public void applyDefaults(ObjectNode object) {
    if (!object.hasNonNull("type") || object.path("type").asText().isEmpty()) {
      object.put("type", "Opaque");
    }
    if (object.remove("stringData") instanceof ObjectNode strings && !strings.isEmpty()) {
      ObjectNode data = Json.child(object, "data");
      strings
          .properties()
          .forEach(
              e ->
                  data.put(
                      e.getKey(),
                      Base64.getEncoder()
                          .encodeToString(e.getValue().asText().getBytes(StandardCharsets.UTF_8))));
    }
  }
}
