package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.cel.compiler.CelCompiler;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code x-kubernetes-validations} rules of one OpenAPI v3 schema, compiled once (when the CRD
 * version is served) and evaluated on every write, as kube-apiserver does: at each schema node
 * (object properties, array {@code items}, map {@code additionalProperties}) with {@code self} the
 * value there; transition rules (those reading {@code oldSelf}) only on updates where the old value
 * exists (always with {@code optionalOldSelf}, {@code oldSelf} then an optional); a rule without
 * {@code oldSelf} is not reported for a value the update left unchanged (ratcheting). Old values
 * are correlated through object fields, map keys and the keys of {@code x-kubernetes-list-type:
 * map} lists, never through atomic lists. Instances are immutable and thread-safe.
 */
final class CelValidation {

  private final Node root;
  private final List<StatusError.Cause> compileErrors;

  private CelValidation(Node root, List<StatusError.Cause> compileErrors) {
    this.root = root;
    this.compileErrors = compileErrors;
  }

  private static final Pattern FIELD_PATH_STEP =
      Pattern.compile("\\.([^.\\[\\]']+)|\\['((?:[^'\\\\]|\\\\.)*)'\\]");

  /** Compiles every rule of {@code schema} (null for none). */
  static CelValidation of(JsonNode schema) {
    List<StatusError.Cause> errors = new ArrayList<>();
    Node root = schema == null ? null : Node.compile(schema, "", true, errors);
    // As kube-apiserver: a fieldPath that names no field is refused before rules are compiled.
    List<StatusError.Cause> paths =
        errors.stream().filter(c -> c.field().endsWith(".fieldPath")).toList();
    return new CelValidation(root, paths.isEmpty() ? List.copyOf(errors) : paths);
  }

  /**
   * Whether {@code fieldPath} ({@code .a.b}, {@code ['a.b']}) names a field under {@code schema}.
   */
  static boolean validFieldPath(JsonNode schema, String fieldPath) {
    Matcher m = FIELD_PATH_STEP.matcher(fieldPath);
    int at = 0;
    JsonNode current = schema;
    while (at < fieldPath.length()) {
      if (!m.find(at) || m.start() != at) {
        return false;
      }
      JsonNode next = current.path("properties").get(stepName(m));
      if (next == null && current.path("additionalProperties").isObject()) {
        next = current.get("additionalProperties");
      }
      if (next == null) {
        return false;
      }
      current = next;
      at = m.end();
    }
    return at > 0;
  }

  private static String stepName(Matcher m) {
    return m.group(1) != null ? m.group(1) : m.group(2).replaceAll("\\\\(.)", "$1");
  }

  /**
   * What the real server reports for rules that do not compile, with fields relative to the schema
   * ({@code properties[spec].x-kubernetes-validations[0].rule}).
   */
  List<StatusError.Cause> compileErrors() {
    return compileErrors;
  }

  boolean hasRules() {
    return root != null;
  }

  /** Adds a cause per failing rule of {@code object}; {@code old} is null on create. */
  void validate(JsonNode object, JsonNode old, List<StatusError.Cause> causes) {
    if (root != null) {
      root.check(object, old, "", true, causes);
    }
  }

  private record Rule(
      String rule,
      String message,
      String reason,
      String fieldPath,
      CelEnvironment.Compiled program,
      CelEnvironment.Compiled messageExpression,
      boolean optionalOldSelf) {

    String messageOrDefault() {
      return message.isBlank() ? "failed rule: " + rule.trim() : message.trim();
    }

    String errorString() {
      return message.isBlank() ? rule.trim() : message.trim();
    }
  }

  /** The compilers of one node's rules, made when a rule needs one (with or without optional). */
  private static final class Compilers {
    private final CelSchemaTypes types;
    private CelCompiler plain;
    private CelCompiler optional;

    Compilers(JsonNode schema, boolean resourceRoot) {
      this.types = CelSchemaTypes.of(schema, resourceRoot, "selfType");
    }

    CelCompiler get(boolean optionalOldSelf) {
      if (optionalOldSelf) {
        optional = optional == null ? CelEnvironment.compiler(types, true) : optional;
        return optional;
      }
      plain = plain == null ? CelEnvironment.compiler(types, false) : plain;
      return plain;
    }
  }

  private static final class Node {
    private final JsonNode schema;
    private final List<Rule> rules = new ArrayList<>();
    private final Map<String, Node> properties = new HashMap<>();
    private Node items;
    private Node additional;

    private Node(JsonNode schema) {
      this.schema = schema;
    }

    /**
     * A node for {@code schema}, or null when neither it nor anything below has rules; {@code
     * resourceRoot} for the CR's root and embedded resources.
     */
    static Node compile(
        JsonNode schema, String path, boolean resourceRoot, List<StatusError.Cause> errors) {
      Node node = new Node(schema);
      JsonNode validations = schema.path("x-kubernetes-validations");
      Compilers compilers = validations.isEmpty() ? null : new Compilers(schema, resourceRoot);
      if (compilers != null && compilers.types.self() == null) {
        errors.add(
            CelRuleErrors.untypedNode(
                (path.isEmpty() ? "" : path + ".") + "x-kubernetes-validations"));
        compilers = null;
        validations = MissingNode.getInstance();
      }
      for (int i = 0; i < validations.size(); i++) {
        String fieldPath = validations.get(i).path("fieldPath").asText("");
        if (!fieldPath.isEmpty() && !validFieldPath(schema, fieldPath)) {
          errors.add(
              CelRuleErrors.invalidFieldPath(
                  (path.isEmpty() ? "" : path + ".")
                      + "x-kubernetes-validations["
                      + i
                      + "].fieldPath",
                  fieldPath));
        }
        Rule rule =
            compileRule(
                compilers,
                validations.get(i),
                (path.isEmpty() ? "" : path + ".") + "x-kubernetes-validations[" + i + "]",
                errors);
        if (rule != null) {
          node.rules.add(rule);
        }
      }
      for (Map.Entry<String, JsonNode> e : schema.path("properties").properties()) {
        Node child =
            compile(
                e.getValue(),
                (path.isEmpty() ? "" : path + ".") + "properties[" + e.getKey() + "]",
                embedded(e.getValue()),
                errors);
        if (child != null) {
          node.properties.put(e.getKey(), child);
        }
      }
      if (schema.path("items").isObject()) {
        node.items =
            compile(schema.get("items"), path + ".items", embedded(schema.get("items")), errors);
      }
      if (schema.path("additionalProperties").isObject()) {
        JsonNode additional = schema.get("additionalProperties");
        node.additional =
            compile(additional, path + ".additionalProperties", embedded(additional), errors);
      }
      boolean empty =
          node.rules.isEmpty()
              && node.properties.isEmpty()
              && node.items == null
              && node.additional == null;
      return empty ? null : node;
    }

    private static boolean embedded(JsonNode schema) {
      return schema.path("x-kubernetes-embedded-resource").asBoolean(false);
    }

    private static Rule compileRule(
        Compilers compilers, JsonNode v, String path, List<StatusError.Cause> errors) {
      String ruleText = v.path("rule").asText("");
      String messageExpression = v.path("messageExpression").asText("");
      boolean optionalOldSelf = v.path("optionalOldSelf").asBoolean(false);
      CelEnvironment.Compiled program = null;
      boolean readsOldSelf = false; // as Kubernetes: false when the rule does not compile
      CelEnvironment.Compiled message = null;
      try {
        program = CelEnvironment.compile(compilers.get(optionalOldSelf), ruleText);
        readsOldSelf = program.readsOldSelf();
        // As Kubernetes: the checked type must be bool; a dyn result (int-or-string) is refused.
        if (!program.resultType().equals("bool")) {
          errors.add(
              CelRuleErrors.invalidRule(
                  path + ".rule", v, "cel expression must evaluate to a bool"));
          program = null;
        }
      } catch (IllegalArgumentException e) {
        errors.add(
            CelRuleErrors.invalidRule(path + ".rule", v, "compilation failed: " + e.getMessage()));
      }
      if (optionalOldSelf && !readsOldSelf) {
        errors.add(CelRuleErrors.optionalOldSelfUnused(path + ".optionalOldSelf"));
      }
      if (!messageExpression.isEmpty()) {
        try {
          message = CelEnvironment.compile(compilers.get(optionalOldSelf), messageExpression);
          if (!message.resultType().equals("string")) {
            errors.add(
                CelRuleErrors.invalidRule(
                    path + ".messageExpression", v, "messageExpression must evaluate to a string"));
            message = null;
          }
        } catch (IllegalArgumentException e) {
          errors.add(
              CelRuleErrors.invalidRule(
                  path + ".messageExpression",
                  v,
                  "messageExpression compilation failed: " + e.getMessage()));
        }
      }
      if (program == null) {
        return null;
      }
      return new Rule(
          ruleText,
          v.path("message").asText(""),
          v.path("reason").asText(""),
          v.path("fieldPath").asText(""),
          program,
          message,
          optionalOldSelf);
    }

    void check(
        JsonNode value, JsonNode old, String path, boolean root, List<StatusError.Cause> causes) {
      if (value == null || value.isNull() || value.isMissingNode()) {
        return;
      }
      if (!rules.isEmpty()) {
        Object self = root ? CelValues.root(value, schema) : CelValues.of(value, schema);
        Object oldSelf =
            old == null ? null : root ? CelValues.root(old, schema) : CelValues.of(old, schema);
        for (Rule rule : rules) {
          boolean transition = rule.program().readsOldSelf();
          if (transition && old == null && !rule.optionalOldSelf()) {
            continue;
          }
          if (!transition && old != null && old.equals(value)) {
            continue; // ratcheting: an unchanged value is not judged again
          }
          evaluate(rule, self, oldSelf, path, causes);
        }
      }
      if (value.isObject()) {
        for (Map.Entry<String, JsonNode> e : value.properties()) {
          Node child = properties.get(e.getKey());
          if (child == null && !schema.path("properties").has(e.getKey())) {
            child = additional;
          }
          if (child != null) {
            boolean isProperty = properties.containsKey(e.getKey());
            String childPath =
                isProperty
                    ? (path.isEmpty() ? e.getKey() : path + "." + e.getKey())
                    : path + "[" + e.getKey() + "]";
            child.check(
                e.getValue(), old == null ? null : old.get(e.getKey()), childPath, false, causes);
          }
        }
      } else if (value.isArray() && items != null) {
        for (int i = 0; i < value.size(); i++) {
          items.check(
              value.get(i), correlated(value.get(i), old), path + "[" + i + "]", false, causes);
        }
      }
    }

    /** The old item of a map list with the same keys (a set's equal item); null otherwise. */
    private JsonNode correlated(JsonNode item, JsonNode old) {
      if (old == null || !old.isArray()) {
        return null;
      }
      String listType = schema.path("x-kubernetes-list-type").asText("atomic");
      for (JsonNode candidate : old) {
        if (listType.equals("set") && candidate.equals(item)) {
          return candidate;
        }
        if (listType.equals("map")) {
          boolean same = true;
          for (JsonNode key : schema.path("x-kubernetes-list-map-keys")) {
            same &= item.path(key.asText()).equals(candidate.path(key.asText()));
          }
          if (same) {
            return candidate;
          }
        }
      }
      return null;
    }

    private void evaluate(
        Rule rule, Object self, Object oldSelf, String path, List<StatusError.Cause> causes) {
      Map<String, Object> vars = new LinkedHashMap<>();
      vars.put("self", self);
      if (rule.optionalOldSelf()) {
        vars.put("oldSelf", Optional.ofNullable(oldSelf));
      } else if (oldSelf != null) {
        vars.put("oldSelf", oldSelf);
      }
      String type = typeName(schema);
      Object result;
      try {
        result = rule.program().program().eval(vars);
      } catch (Exception e) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                path,
                "Invalid value: \""
                    + type
                    + "\": "
                    + evaluationError(e)
                    + " evaluating rule: "
                    + rule.errorString()));
        return;
      }
      if (Boolean.TRUE.equals(result)) {
        return;
      }
      String detail = rule.messageOrDefault();
      if (rule.messageExpression() != null) {
        try {
          Object message = rule.messageExpression().program().eval(vars);
          if (message instanceof String s && !s.isBlank() && !s.contains("\n")) {
            detail = s;
          }
        } catch (Exception e) {
          // As Kubernetes: a failing messageExpression falls back to the message.
        }
      }
      String field = path;
      if (!rule.fieldPath().isEmpty()) {
        String suffix =
            rule.fieldPath().startsWith(".") ? rule.fieldPath() : "." + rule.fieldPath();
        field = path.isEmpty() ? suffix.substring(1) : path + suffix;
      }
      causes.add(cause(rule.reason(), field, type, detail));
    }
  }

  /**
   * The field of a cause for a rule's fieldPath: {@code .a} and {@code ['a']} as {@code path.a}.
   */
  private static String withFieldPath(String path, String fieldPath) {
    StringBuilder out = new StringBuilder(path);
    Matcher m = FIELD_PATH_STEP.matcher(fieldPath);
    while (m.find()) {
      String name = stepName(m);
      out.append(out.length() == 0 ? "" : ".").append(name);
    }
    return out.toString();
  }

  private static StatusError.Cause cause(String reason, String field, String type, String detail) {
    return switch (reason) {
      case "FieldValueForbidden" -> new StatusError.Cause(reason, field, "Forbidden: " + detail);
      case "FieldValueRequired" ->
          new StatusError.Cause(reason, field, "Required value: " + detail);
      case "FieldValueDuplicate" ->
          new StatusError.Cause(reason, field, "Duplicate value: \"" + type + "\"");
      default ->
          new StatusError.Cause(
              "FieldValueInvalid", field, "Invalid value: \"" + type + "\": " + detail);
    };
  }

  /** cel-go's words for the evaluation errors rules commonly hit (a missing field). */
  private static String evaluationError(Exception e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String text = String.valueOf(t.getMessage());
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("key '([^']*)' is not present in map").matcher(text);
    if (m.find()) {
      return "no such key: " + m.group(1);
    }
    return text;
  }

  /** The schema's type as Kubernetes prints it in a rule's error ({@code ""} when untyped). */
  private static String typeName(JsonNode schema) {
    return schema.path("type").asText("");
  }
}
