package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A parsed field selector: {@code field=value}, {@code field==value} and {@code field!=value},
 * joined by commas, with {@code \,} {@code \=} and {@code \\} escapes. Only the fields a resource
 * declares are accepted; the rest are rejected with 400 as Kubernetes does.
 */
public final class FieldSelector {

  private record Term(String field, boolean equal, String value) {}

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  static FieldSelector everything() {
    return EVERYTHING;
  }

  public boolean isEverything() {
    return terms.isEmpty();
  }

  /** The value a term requires for {@code field} with {@code =}, or null. */
  String requiredValue(String field) {
    for (Term t : terms) {
      if (t.equal() && t.field().equals(field)) {
        return t.value();
      }
    }
    return null;
  }

  public boolean matches(JsonNode object) {
    for (Term t : terms) {
      String actual = valueOf(object, t.field());
      if (t.equal() != t.value().equals(actual)) {
        return false;
      }
    }
    return true;
  }

  private static String valueOf(JsonNode object, String field) {
    JsonNode node = Json.at(object, field);
    if (node.isMissingNode() || node.isNull()) {
      return "";
    }
    return node.asText();
  }

  /**
   * Parses a selector against the fields a resource supports.
   *
   * @throws StatusError 400 for malformed terms or unsupported fields
   */
  public static FieldSelector parse(String selector, Set<String> supported, String resource) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Term> terms = new ArrayList<>();
    for (String raw : splitUnescaped(selector, ',')) {
      if (raw.isBlank()) {
        continue;
      }
      int at = indexOfOperator(raw);
      if (at < 0) {
        throw StatusError.badRequest(
            "invalid selector: '" + selector + "'; can't understand '" + raw + "'");
      }
      String field = unescape(raw.substring(0, at).trim());
      boolean equal;
      int valueStart;
      if (raw.startsWith("!=", at)) {
        equal = false;
        valueStart = at + 2;
      } else if (raw.startsWith("==", at)) {
        equal = true;
        valueStart = at + 2;
      } else {
        equal = true;
        valueStart = at + 1;
      }
      String value = unescape(raw.substring(valueStart).trim());
      if (!field.equals("metadata.name")
          && !field.equals("metadata.namespace")
          && !supported.contains(field)) {
        throw StatusError.badRequest(
            "field label not supported: " + field + " (resource " + resource + ")");
      }
      terms.add(new Term(field, equal, value));
    }
    return new FieldSelector(terms);
  }

  private static int indexOfOperator(String term) {
    for (int i = 0; i < term.length(); i++) {
      char c = term.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '=' || (c == '!' && i + 1 < term.length() && term.charAt(i + 1) == '=')) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> splitUnescaped(String s, char separator) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        current.append(c).append(s.charAt(++i));
      } else if (c == separator) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        c = s.charAt(++i);
      }
      out.append(c);
    }
    return out.toString();
  }
}
