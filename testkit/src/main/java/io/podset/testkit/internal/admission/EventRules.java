package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.Map;

/**
 * events.k8s.io/v1 Events: one store with core/v1 Events, as on a real server, converted on the way
 * in and out as {@code pkg/apis/events/v1/conversion.go} does ({@code regarding} is {@code
 * involvedObject}, {@code note} is {@code message}, {@code reportingController} is {@code
 * reportingComponent}, the {@code deprecated*} fields are {@code source}, {@code firstTimestamp},
 * {@code lastTimestamp} and {@code count}). Fields neither version has are dropped.
 */
public enum EventRules implements TypeRules {
  INSTANCE;

  // events.k8s.io/v1 name -> core/v1 name.
  private static final Map<String, String> FIELDS =
      Map.ofEntries(
          Map.entry("regarding", "involvedObject"),
          Map.entry("note", "message"),
          Map.entry("deprecatedSource", "source"),
          Map.entry("deprecatedFirstTimestamp", "firstTimestamp"),
          Map.entry("deprecatedLastTimestamp", "lastTimestamp"),
          Map.entry("deprecatedCount", "count"),
          Map.entry("reportingController", "reportingComponent"),
          Map.entry("reportingInstance", "reportingInstance"),
          Map.entry("reason", "reason"),
          Map.entry("type", "type"),
          Map.entry("eventTime", "eventTime"),
          Map.entry("series", "series"),
          Map.entry("action", "action"),
          Map.entry("related", "related"));

  @Override
  public String storageKey(ResourceType type) {
    return "/events";
  }

  @Override
  public ObjectNode toStorage(ObjectNode event) {
    ObjectNode core = convert(event, false);
    core.put("apiVersion", "v1");
    return core;
  }

  @Override
  public ObjectNode fromStorage(ObjectNode stored) {
    ObjectNode event = convert(stored, true);
    event.put("apiVersion", "events.k8s.io/v1");
    return event;
  }

  private static ObjectNode convert(ObjectNode from, boolean toEvents) {
    ObjectNode to = Json.object();
    to.put("kind", "Event");
    JsonNode metadata = from.get("metadata");
    if (metadata != null) {
      to.set("metadata", metadata.deepCopy());
    }
    FIELDS.forEach(
        (events, core) -> {
          JsonNode value = from.get(toEvents ? core : events);
          if (value != null) {
            to.set(toEvents ? events : core, value.deepCopy());
          }
        });
    return to;
  }
}
