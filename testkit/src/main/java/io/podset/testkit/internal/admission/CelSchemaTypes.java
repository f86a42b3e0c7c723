package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CEL type of {@code self} at one schema node, declared as kube-apiserver declares it, so that
 * cel's checker refuses what the real server's refuses at CRD write time (an undefined field, an
 * operator applied to mismatched types, a rule that is not a bool): objects are struct types with
 * their properties (named as they are or escaped), {@code additionalProperties} maps of string to
 * the value type, arrays lists of the item type, {@code integer} int, {@code number} double, {@code
 * boolean} bool, strings string or, by {@code format}, bytes ({@code byte}), duration ({@code
 * duration}) and timestamp ({@code date}, {@code date-time}); {@code x-kubernetes-int-or-string} is
 * dyn. An object with {@code x-kubernetes-preserve-unknown-fields} has only its declared properties
 * (the real server does not type unknown data), and a resource root (the CR itself, or an {@code
 * x-kubernetes-embedded-resource}) also has {@code apiVersion}, {@code kind} and {@code metadata}
 * with {@code name} and {@code generateName}. A node Kubernetes cannot type (no {@code type}, or an
 * array without {@code items}) is left out of its parent, so naming it is an undefined field. The
 * struct types are also this node's type provider for the checker. Instances are immutable once
 * built.
 */
final class CelSchemaTypes implements CelTypeProvider {

  /** The words CEL reserves; a property so named is {@code __word__} in a rule. */
  private static final Set<String> RESERVED =
      Set.of(
          "true",
          "false",
          "null",
          "in",
          "as",
          "break",
          "const",
          "continue",
          "else",
          "for",
          "function",
          "if",
          "import",
          "let",
          "loop",
          "package",
          "namespace",
          "return",
          "var",
          "void",
          "while");

  private static final Pattern ESCAPABLE = Pattern.compile("[a-zA-Z_.\\-/][a-zA-Z0-9_.\\-/]*");
  private static final Pattern TO_ESCAPE = Pattern.compile("__|[.\\-/]");
  private static final Pattern ESCAPED = Pattern.compile("__(underscores|dot|dash|slash)__");

  private final Map<String, CelType> structs = new LinkedHashMap<>();
  private final CelType self;

  private CelSchemaTypes(JsonNode schema, boolean resourceRoot, String name) {
    this.self = typeOf(schema, resourceRoot, name);
  }

  /**
   * The types of a rule on {@code schema}; {@code resourceRoot} for the CR's root. {@code name}
   * names the struct of {@code self} (the real server takes a fresh {@code selfType<n>} per node).
   */
  static CelSchemaTypes of(JsonNode schema, boolean resourceRoot, String name) {
    return new CelSchemaTypes(schema, resourceRoot, name);
  }

  /**
   * The type of {@code self}, or null when Kubernetes cannot type the node (no {@code type}): the
   * real server then refuses the node's rules with an internal error.
   */
  CelType self() {
    return self;
  }

  @Override
  public ImmutableCollection<CelType> types() {
    return ImmutableList.copyOf(structs.values());
  }

  @Override
  public Optional<CelType> findType(String typeName) {
    return Optional.ofNullable(structs.get(typeName));
  }

  /**
   * A property name as rules name it, or null when it cannot be named (Kubernetes' {@code Escape}):
   * {@code __} as {@code __underscores__}, {@code .} {@code __dot__}, {@code -} {@code __dash__},
   * {@code /} {@code __slash__}, a reserved word {@code __word__}.
   */
  static String escape(String property) {
    if (RESERVED.contains(property)) {
      return "__" + property + "__";
    }
    if (!ESCAPABLE.matcher(property).matches()) {
      return null;
    }
    Matcher m = TO_ESCAPE.matcher(property);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement =
          switch (m.group()) {
            case "__" -> "__underscores__";
            case "." -> "__dot__";
            case "-" -> "__dash__";
            default -> "__slash__";
          };
      m.appendReplacement(out, replacement);
    }
    m.appendTail(out);
    return out.toString();
  }

  /** A field name of a rule as the property it names (Kubernetes' {@code Unescape}). */
  static String unescape(String field) {
    if (field.length() > 4 && field.startsWith("__") && field.endsWith("__")) {
      String word = field.substring(2, field.length() - 2);
      if (RESERVED.contains(word)) {
        return word;
      }
    }
    Matcher m = ESCAPED.matcher(field);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement =
          switch (m.group(1)) {
            case "underscores" -> "__";
            case "dot" -> ".";
            case "dash" -> "-";
            default -> "/";
          };
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private CelType typeOf(JsonNode schema, boolean resourceRoot, String name) {
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      return SimpleType.DYN;
    }
    return switch (schema.path("type").asText("")) {
      case "array" -> schema.path("items").isObject() ? listOf(schema.get("items"), name) : null;
      case "object" -> objectType(schema, resourceRoot, name);
      case "string" ->
          switch (schema.path("format").asText("")) {
            case "byte" -> SimpleType.BYTES;
            case "duration" -> SimpleType.DURATION;
            case "date", "date-time" -> SimpleType.TIMESTAMP;
            default -> SimpleType.STRING;
          };
      case "boolean" -> SimpleType.BOOL;
      case "number" -> SimpleType.DOUBLE;
      case "integer" -> SimpleType.INT;
      default -> null;
    };
  }

  private CelType listOf(JsonNode items, String name) {
    CelType item = typeOf(items, embedded(items), name + ".@idx");
    return item == null ? null : ListType.create(item);
  }

  private CelType objectType(JsonNode schema, boolean resourceRoot, String name) {
    JsonNode additional = schema.path("additionalProperties");
    if (additional.isObject()) {
      CelType value = typeOf(additional, embedded(additional), name + ".@elem");
      return value == null ? null : MapType.create(SimpleType.STRING, value);
    }
    Map<String, CelType> fields = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : schema.path("properties").properties()) {
      String field = escape(e.getKey());
      if (field == null) {
        continue;
      }
      CelType type = typeOf(e.getValue(), embedded(e.getValue()), name + "." + field);
      if (type != null) {
        fields.put(e.getKey(), type);
      }
    }
    if (resourceRoot) {
      fields.put("apiVersion", SimpleType.STRING);
      fields.put("kind", SimpleType.STRING);
      fields.put("metadata", metadata(name + ".metadata"));
    }
    return struct(name, fields);
  }

  /** What rules see of an object's metadata: only its name and generateName. */
  private CelType metadata(String name) {
    Map<String, CelType> fields = new LinkedHashMap<>();
    fields.put("name", SimpleType.STRING);
    fields.put("generateName", SimpleType.STRING);
    return struct(name, fields);
  }

  /**
   * A struct of {@code fields} by property name. As Kubernetes' type provider, a rule's field name
   * is unescaped before the lookup, so {@code __namespace__} and {@code namespace} both name the
   * property {@code namespace}, and {@code a__dash__b} names {@code a-b}.
   */
  private CelType struct(String name, Map<String, CelType> fields) {
    Map<String, CelType> copy = Map.copyOf(fields);
    // cel-java asks the names first: both forms of each property.
    ImmutableSet.Builder<String> names = ImmutableSet.builder();
    fields.keySet().forEach(f -> names.add(f).add(escape(f)));
    StructType type =
        StructType.create(name, names.build(), f -> Optional.ofNullable(copy.get(unescape(f))));
    structs.put(name, type);
    return type;
  }

  private static boolean embedded(JsonNode schema) {
    return schema.path("x-kubernetes-embedded-resource").asBoolean(false);
  }
}
