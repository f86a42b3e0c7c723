package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.NullValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JSON values as CEL sees them, typed by their schema as Kubernetes maps them (the types {@link
 * CelSchemaTypes} declares): {@code integer} to int, {@code number} to double, {@code string} to
 * string ({@code format: date-time} and {@code date} to timestamp, {@code duration} to duration,
 * {@code byte} to bytes), objects and maps to maps (an object's properties under their escaped
 * names too, e.g. {@code a-b} also as {@code a__dash__b}), arrays to lists; {@code
 * x-kubernetes-int-or-string} and schema-less values by their JSON form. The root's {@code
 * metadata} shows only {@code name} and {@code generateName}, as on Kubernetes.
 */
final class CelValues {

  private static final Pattern GO_DURATION =
      Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|ms|s|m|h)");

  private CelValues() {}

  static Object root(JsonNode value, JsonNode schema) {
    Object converted = of(value, schema);
    if (converted instanceof Map<?, ?> map && value.has("metadata")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> root = (Map<String, Object>) map;
      Map<String, Object> meta = new LinkedHashMap<>();
      for (String field : List.of("name", "generateName")) {
        if (value.path("metadata").path(field).isTextual()) {
          meta.put(field, value.path("metadata").path(field).asText());
        }
      }
      root.put("metadata", meta);
    }
    return converted;
  }

  static Object of(JsonNode value, JsonNode schema) {
    if (value == null || value.isNull()) {
      return NullValue.NULL_VALUE;
    }
    String type = schema == null ? "" : schema.path("type").asText("");
    String format = schema == null ? "" : schema.path("format").asText("");
    if (value.isTextual()) {
      if (type.equals("string") && format.equals("date-time")) {
        Instant t = timestamp(value.asText());
        if (t != null) {
          return t;
        }
      }
      if (type.equals("string") && format.equals("date")) {
        Instant t = timestamp(value.asText() + "T00:00:00Z");
        if (t != null) {
          return t;
        }
      }
      if (type.equals("string") && format.equals("byte")) {
        try {
          return ByteString.copyFrom(Base64.getDecoder().decode(value.asText()));
        } catch (IllegalArgumentException e) {
          return value.asText(); // the schema's format check refuses it
        }
      }
      if (type.equals("string") && format.equals("duration")) {
        Duration d = duration(value.asText());
        if (d != null) {
          return d;
        }
      }
      return value.asText();
    }
    if (value.isNumber()) {
      if (type.equals("number") || (!value.isIntegralNumber() && !type.equals("integer"))) {
        return value.asDouble();
      }
      return value.asLong();
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isArray()) {
      JsonNode items = schema == null ? null : schema.get("items");
      List<Object> out = new ArrayList<>(value.size());
      value.forEach(item -> out.add(of(item, items)));
      return out;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    JsonNode props = schema == null ? null : schema.get("properties");
    JsonNode additional = schema == null ? null : schema.get("additionalProperties");
    for (Map.Entry<String, JsonNode> e : value.properties()) {
      JsonNode sub = props == null ? null : props.get(e.getKey());
      if (sub == null && additional != null && additional.isObject()) {
        sub = additional;
      }
      Object converted = of(e.getValue(), sub);
      out.put(e.getKey(), converted);
      // A rule may name a property by its escaped name too (a__dash__b, __namespace__): the map
      // answers both, as Kubernetes' object values unescape the name of a field they select.
      String escaped =
          props != null && props.has(e.getKey()) ? CelSchemaTypes.escape(e.getKey()) : null;
      if (escaped != null && !escaped.equals(e.getKey())) {
        out.put(escaped, converted);
      }
    }
    return out;
  }

  private static Instant timestamp(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** A Go duration ({@code 1h30m}, {@code -1.5s}), as {@code time.ParseDuration}; null if none. */
  private static Duration duration(String text) {
    String rest = text;
    boolean negative = rest.startsWith("-");
    if (negative || rest.startsWith("+")) {
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = GO_DURATION.matcher(rest);
    BigDecimal nanos = BigDecimal.ZERO;
    int end = 0;
    while (m.lookingAt() && !rest.isEmpty()) {
      if (m.group(1).isEmpty() || m.group(1).equals(".")) {
        return null;
      }
      long unit =
          switch (m.group(2)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
          };
      nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)));
      end += m.end();
      rest = rest.substring(m.end());
      m = GO_DURATION.matcher(rest);
    }
    if (end == 0 || !rest.isEmpty()) {
      return null;
    }
    long total = nanos.longValue() * (negative ? -1 : 1);
    return Duration.ofNanos(total);
  }
}
