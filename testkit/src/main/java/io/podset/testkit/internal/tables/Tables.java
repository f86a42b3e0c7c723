package io.podset.testkit.internal.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.JsonPaths;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code meta.k8s.io/v1} Table responses, as {@code kubectl get} asks for them: a Name column, the
 * resource's printer columns (custom resources: the CRD's; pods, deployments, services and nodes:
 * computed as the real server's printers do, see {@link BuiltinTables}), and per row the object as
 * metadata only ({@code includeObject=Metadata}, the default), in full ({@code Object}) or not at
 * all.
 */
public final class Tables {

  private Tables() {}

  public static ObjectNode table(
      ResourceType type,
      List<ObjectNode> objects,
      String resourceVersion,
      String include,
      Instant now) {
    ObjectNode table = Json.object();
    table.put("kind", "Table");
    table.put("apiVersion", "meta.k8s.io/v1");
    ObjectNode meta = table.putObject("metadata");
    if (resourceVersion != null) {
      meta.put("resourceVersion", resourceVersion);
    }
    ArrayNode columns = table.putArray("columnDefinitions");
    ObjectNode nameColumn = columns.addObject();
    nameColumn.put("name", "Name");
    nameColumn.put("type", "string");
    nameColumn.put("format", "name");
    nameColumn.put("description", "Name must be unique within a namespace.");
    nameColumn.put("priority", 0);
    java.util.Optional<BuiltinTables> printer = BuiltinTables.of(type);
    if (printer.isPresent()) {
      for (BuiltinTables.Column c : printer.get().columns()) {
        ObjectNode column = columns.addObject();
        column.put("name", c.name());
        column.put("type", "string");
        column.put("format", "");
        column.put("description", c.description());
        column.put("priority", c.priority());
      }
    } else {
      for (ResourceType.PrinterColumn c : type.printerColumns()) {
        ObjectNode column = columns.addObject();
        column.put("name", c.name());
        column.put("type", c.type());
        column.put("format", c.format());
        column.put("description", c.description());
        column.put("priority", c.priority());
      }
    }
    ArrayNode rows = table.putArray("rows");
    for (ObjectNode object : objects) {
      ObjectNode row = rows.addObject();
      ArrayNode cells = row.putArray("cells");
      cells.add(Json.name(object));
      if (printer.isPresent()) {
        printer.get().cells(object, now, cells, row);
      } else {
        pathCells(type, object, now, cells);
      }
      String mode = include == null ? "Metadata" : include;
      switch (mode) {
        case "None" -> {}
        case "Object" -> row.set("object", object);
        default -> {
          ObjectNode partial = row.putObject("object");
          partial.put("kind", "PartialObjectMetadata");
          partial.put("apiVersion", "meta.k8s.io/v1");
          partial.set("metadata", object.path("metadata"));
        }
      }
    }
    return table;
  }

  // The cells of a resource's printer columns (a CRD's, or the table of BuiltinResources).
  private static void pathCells(
      ResourceType type, ObjectNode object, Instant now, ArrayNode cells) {
    for (ResourceType.PrinterColumn c : type.printerColumns()) {
      JsonNode value = JsonPaths.find(object, c.jsonPath());
      if (value.isMissingNode() || value.isNull()) {
        cells.addNull();
      } else if (c.type().equals("date")) {
        cells.add(age(value.asText(), now));
      } else if (value.isValueNode()) {
        cells.add(value);
      } else {
        cells.add(value.toString());
      }
    }
  }

  public static void checkInclude(String include) {
    if (include != null && !List.of("None", "Metadata", "Object").contains(include)) {
      throw StatusError.badRequest(
          "includeObject: Unsupported value: \""
              + include
              + "\": supported values: \"Metadata\", \"None\", \"Object\"");
    }
  }

  /** A kubectl-style age: {@code 5s}, {@code 3m20s}, {@code 2d4h}. */
  public static String age(String timestamp, Instant now) {
    Instant then;
    try {
      then = Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      return timestamp;
    }
    long seconds = Math.max(0, Duration.between(then, now).getSeconds());
    if (seconds < 120) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      return minutes + "m" + (seconds % 60 == 0 ? "" : (seconds % 60) + "s");
    }
    if (minutes < 180) {
      return minutes + "m";
    }
    long hours = minutes / 60;
    if (hours < 48) {
      return hours + "h" + (minutes % 60 == 0 ? "" : (minutes % 60) + "m");
    }
    long days = hours / 24;
    return days < 8 ? days + "d" + (hours % 24 == 0 ? "" : (hours % 24) + "h") : days + "d";
  }
}
