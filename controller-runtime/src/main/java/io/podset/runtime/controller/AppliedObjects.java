package io.podset.runtime.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Decides whether an apply can be skipped: the cached object already holds every field the desired
 * object sets, and carries the stamp of the same desired fields (so a field dropped from the
 * desired object, which the server removes only when applied, is not mistaken for a match).
 *
 * <p>Values compare as the server normalises them: numbers by value, quantities by amount ({@code
 * 0.5} equals {@code 500m}), and a zero value ({@code 0}, {@code false}, {@code ""}, {@code []},
 * {@code {}}) the server may omit equals an absent field. A list whose items all have a {@code
 * name} matches items by name (other managers may add items); any other list matches item by item.
 */
final class AppliedObjects {

  /** The annotation holding the hash of the desired fields last applied. */
  static final String ANNOTATION = "controller-runtime.podset.io/applied";

  private static final Set<String> SERVER_METADATA =
      Set.of(
          "resourceVersion",
          "uid",
          "creationTimestamp",
          "generation",
          "managedFields",
          "selfLink",
          "deletionTimestamp",
          "deletionGracePeriodSeconds");

  private static final Pattern QUANTITY =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+|[numkMGTPE]|[KMGTPE]i)?");

  private static final ObjectMapper CANONICAL = new ObjectMapper();

  private AppliedObjects() {}

  /**
   * Removes what the server sets (metadata it owns, the status) from {@code desired} and returns
   * the stamp of what remains, to be stored under {@link #ANNOTATION}.
   */
  static String stamp(ObjectNode desired) {
    desired.remove("status");
    JsonNode metadata = desired.get("metadata");
    if (metadata instanceof ObjectNode meta) {
      SERVER_METADATA.forEach(meta::remove);
      if (meta.get("annotations") instanceof ObjectNode annotations) {
        annotations.remove(ANNOTATION);
        if (annotations.isEmpty()) {
          meta.remove("annotations");
        }
      }
    }
    return hash(canonical(desired));
  }

  /** True when {@code actual} holds every field of {@code desired} with an equal value. */
  static boolean holds(JsonNode actual, JsonNode desired) {
    if (desired == null || isZero(desired)) {
      return actual == null || actual.isNull() || isZero(actual) || actual.equals(desired);
    }
    if (actual == null || actual.isNull()) {
      return false;
    }
    if (desired.isObject()) {
      if (!actual.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (!holds(actual.get(field.getKey()), field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired.isArray()) {
      return actual.isArray() && listHolds(actual, desired);
    }
    return scalarEquals(actual, desired);
  }

  private static boolean listHolds(JsonNode actual, JsonNode desired) {
    if (byName(desired) && byName(actual)) {
      for (JsonNode item : desired) {
        JsonNode match = null;
        for (JsonNode candidate : actual) {
          if (candidate.get("name").equals(item.get("name"))) {
            match = candidate;
            break;
          }
        }
        if (match == null || !holds(match, item)) {
          return false;
        }
      }
      return true;
    }
    if (actual.size() != desired.size()) {
      return false;
    }
    for (int i = 0; i < desired.size(); i++) {
      if (!holds(actual.get(i), desired.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean byName(JsonNode list) {
    for (JsonNode item : list) {
      if (!item.isObject() || !item.path("name").isTextual()) {
        return false;
      }
    }
    return true;
  }

  private static boolean scalarEquals(JsonNode actual, JsonNode desired) {
    if (actual.isNumber() && desired.isNumber()) {
      return actual.decimalValue().compareTo(desired.decimalValue()) == 0;
    }
    if (actual.isTextual() && desired.isTextual()) {
      String a = actual.textValue();
      String d = desired.textValue();
      return a.equals(d) || sameQuantity(a, d);
    }
    return actual.equals(desired);
  }

  private static boolean sameQuantity(String a, String b) {
    if (!QUANTITY.matcher(a).matches() || !QUANTITY.matcher(b).matches()) {
      return false;
    }
    try {
      BigDecimal x = Quantity.getAmountInBytes(new Quantity(a));
      BigDecimal y = Quantity.getAmountInBytes(new Quantity(b));
      return x.compareTo(y) == 0;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean isZero(JsonNode node) {
    return node.isNull()
        || (node.isTextual() && node.textValue().isEmpty())
        || (node.isBoolean() && !node.booleanValue())
        || (node.isNumber() && node.decimalValue().signum() == 0)
        || (node.isContainerNode() && node.isEmpty());
  }

  /** The node with object fields in name order, so that equal trees serialise alike. */
  private static JsonNode canonical(JsonNode node) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      node.fields().forEachRemaining(f -> sorted.put(f.getKey(), canonical(f.getValue())));
      ObjectNode result = CANONICAL.createObjectNode();
      sorted.forEach(result::set);
      return result;
    }
    if (node.isArray()) {
      List<JsonNode> items = new ArrayList<>();
      node.forEach(item -> items.add(canonical(item)));
      return CANONICAL.createArrayNode().addAll(items);
    }
    return node;
  }

  private static String hash(JsonNode canonical) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 22);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
