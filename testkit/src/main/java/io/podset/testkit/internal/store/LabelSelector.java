package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A parsed label selector with the full Kubernetes grammar: {@code k=v}, {@code k==v}, {@code
 * k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}, {@code k>n}, {@code
 * k<n}; requirements are joined by commas and all must hold.
 */
public final class LabelSelector {

  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)");
  private static final Pattern PREFIX =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern VALUE =
      Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

  private enum Op {
    EQ,
    NEQ,
    IN,
    NOTIN,
    EXISTS,
    NOT_EXISTS,
    GT,
    LT
  }

  private record Requirement(String key, Op op, Set<String> values) {
    boolean matches(JsonNode labels) {
      JsonNode value = labels.get(key);
      boolean present = value != null && !value.isNull();
      String text = present ? value.asText() : null;
      return switch (op) {
        case EQ, IN -> present && values.contains(text);
        case NEQ, NOTIN -> !present || !values.contains(text);
        case EXISTS -> present;
        case NOT_EXISTS -> !present;
        case GT -> present && compare(text) > 0;
        case LT -> present && compare(text) < 0;
      };
    }

    private int compare(String text) {
      try {
        return Long.compare(Long.parseLong(text), Long.parseLong(values.iterator().next()));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }

  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  static LabelSelector everything() {
    return EVERYTHING;
  }

  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /** Whether the object's {@code metadata.labels} satisfy every requirement. */
  public boolean matches(JsonNode object) {
    if (requirements.isEmpty()) {
      return true;
    }
    JsonNode labels = object.path("metadata").path("labels");
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses a selector string.
   *
   * @throws StatusError 400 when the selector is malformed
   */
  public static LabelSelector parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    return new Parser(selector).parse();
  }

  private static final class Parser {
    private final String input;
    private int pos;

    Parser(String input) {
      this.input = input;
    }

    LabelSelector parse() {
      List<Requirement> result = new ArrayList<>();
      while (true) {
        skipSpaces();
        result.add(requirement());
        skipSpaces();
        if (pos == input.length()) {
          return new LabelSelector(result);
        }
        expect(',');
      }
    }

    private Requirement requirement() {
      if (peek() == '!') {
        pos++;
        skipSpaces();
        return new Requirement(key(), Op.NOT_EXISTS, Set.of());
      }
      String key = key();
      skipSpaces();
      if (pos == input.length() || peek() == ',') {
        return new Requirement(key, Op.EXISTS, Set.of());
      }
      if (input.startsWith("==", pos)) {
        pos += 2;
        return new Requirement(key, Op.EQ, Set.of(value()));
      }
      if (input.startsWith("!=", pos)) {
        pos += 2;
        return new Requirement(key, Op.NEQ, Set.of(value()));
      }
      char c = peek();
      if (c == '=' || c == '>' || c == '<') {
        pos++;
        String v = value();
        if (c != '=' && !v.matches("-?[0-9]+")) {
          throw fail("for 'Gt', 'Lt' operators, the value must be an integer");
        }
        return new Requirement(key, c == '=' ? Op.EQ : c == '>' ? Op.GT : Op.LT, Set.of(v));
      }
      String word = word();
      Op op =
          switch (word) {
            case "in" -> Op.IN;
            case "notin" -> Op.NOTIN;
            default -> throw fail("unknown operator '" + word + "'");
          };
      skipSpaces();
      expect('(');
      Set<String> values = new TreeSet<>();
      while (true) {
        skipSpaces();
        if (peek() == ')' && values.isEmpty()) {
          break;
        }
        values.add(value());
        skipSpaces();
        if (peek() == ',') {
          pos++;
          continue;
        }
        break;
      }
      expect(')');
      return new Requirement(key, op, values);
    }

    private String key() {
      String key = word();
      String name = key;
      int slash = key.indexOf('/');
      if (slash >= 0) {
        String prefix = key.substring(0, slash);
        name = key.substring(slash + 1);
        if (prefix.isEmpty() || prefix.length() > 253 || !PREFIX.matcher(prefix).matches()) {
          throw fail("invalid label key prefix \"" + prefix + "\"");
        }
      }
      if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
        throw fail("invalid label key \"" + key + "\"");
      }
      return key;
    }

    private String value() {
      skipSpaces();
      int start = pos;
      while (pos < input.length() && " ,()!=<>".indexOf(input.charAt(pos)) < 0) {
        pos++;
      }
      String v = input.substring(start, pos);
      if (v.length() > 63 || !VALUE.matcher(v).matches()) {
        throw fail("invalid label value: \"" + v + "\"");
      }
      return v;
    }

    private String word() {
      int start = pos;
      while (pos < input.length() && " ,()!=<>".indexOf(input.charAt(pos)) < 0) {
        pos++;
      }
      if (start == pos) {
        throw fail("expected a label key at position " + pos);
      }
      return input.substring(start, pos);
    }

    private char peek() {
      return pos < input.length() ? input.charAt(pos) : '\0';
    }

    private void expect(char c) {
      if (peek() != c) {
        throw fail("expected '" + c + "' at position " + pos);
      }
      pos++;
    }

    private void skipSpaces() {
      while (pos < input.length() && input.charAt(pos) == ' ') {
        pos++;
      }
    }

    private StatusError fail(String why) {
      return StatusError.badRequest("unable to parse requirement: found '" + input + "': " + why);
    }
  }
}
