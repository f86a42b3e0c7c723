package io.podset.testkit.internal.resource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/** Server-side metadata: names, uids, timestamps, label checks, generation, version rendering. */
public final class ObjectMeta {

  private static final AtomicReference<Stamp> LAST_STAMP =
      new AtomicReference<>(new Stamp(Long.MIN_VALUE, ""));
  private static final String NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final Pattern LABEL_VALUE =
      Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
  private static final Pattern LABEL_NAME =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  private ObjectMeta() {}

  public static String timestamp(Instant instant) {
    // Every write stamps its managedFields entry: formatted once per second, not per write.
    long second = instant.getEpochSecond();
    Stamp last = LAST_STAMP.get();
    if (last.second() == second) {
      return last.text();
    }
    String text = Instant.ofEpochSecond(second).toString();
    LAST_STAMP.set(new Stamp(second, text));
    return text;
  }

  /** A second since the epoch and its RFC 3339 form. */
  private record Stamp(long second, String text) {}

  /** {@code prefix} plus five random characters, as Kubernetes' name generator. */
  public static String generateName(String prefix, Random random) {
    String base = prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
    StringBuilder name = new StringBuilder(base);
    for (int i = 0; i < 5; i++) {
      name.append(NAME_ALPHABET.charAt(random.nextInt(NAME_ALPHABET.length())));
    }
    return name.toString();
  }

  /** Adds a cause for each invalid label key or value. */
  public static void validateLabels(JsonNode object, List<StatusError.Cause> causes) {
    JsonNode labels = object.path("metadata").path("labels");
    for (Map.Entry<String, JsonNode> e : labels.properties()) {
      String key = e.getKey();
      String name = key.contains("/") ? key.substring(key.indexOf('/') + 1) : key;
      String prefix = key.contains("/") ? key.substring(0, key.indexOf('/')) : null;
      if (name.isEmpty()
          || name.length() > 63
          || !LABEL_NAME.matcher(name).matches()
          || (prefix != null && NameRule.SUBDOMAIN.check(prefix) != null)) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                "metadata.labels",
                "Invalid value: \""
                    + key
                    + "\": name part must consist of alphanumeric characters, '-', '_' or '.',"
                    + " and must start and end with an alphanumeric character"));
      }
      String value = e.getValue().asText();
      if (value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                "metadata.labels",
                "Invalid value: \""
                    + value
                    + "\": a valid label must be an empty string or consist of alphanumeric"
                    + " characters, '-', '_' or '.', and must start and end with an alphanumeric"
                    + " character"));
      }
    }
  }

  /**
   * Whether anything besides metadata (and status when the kind has a status subresource) differs:
   * the changes that bump {@code metadata.generation}.
   */
  public static boolean specChanged(
      ObjectNode before, ObjectNode after, boolean statusSubresource) {
    // Field by field, without copying either object.
    return differsBesides(before, after, statusSubresource)
        || differsBesides(after, before, statusSubresource);
  }

  /** Whether a field of {@code a} (other than metadata, and status if left out) differs in b. */
  private static boolean differsBesides(ObjectNode a, ObjectNode b, boolean statusSubresource) {
    for (Map.Entry<String, JsonNode> e : a.properties()) {
      String field = e.getKey();
      if (field.equals("metadata") || (statusSubresource && field.equals("status"))) {
        continue;
      }
      if (!e.getValue().equals(b.get(field))) {
        return true;
      }
    }
    return false;
  }

  /** The stored object as served at {@code type}'s version (custom resources only differ). */
  public static ObjectNode render(ResourceType type, ObjectNode stored) {
    if (type.apiVersion().equals(stored.path("apiVersion").asText())) {
      return stored;
    }
    ObjectNode converted = type.rules().fromStorage(stored);
    ObjectNode copy = converted == stored ? stored.deepCopy() : converted;
    copy.put("apiVersion", type.apiVersion());
    return copy;
  }
}
