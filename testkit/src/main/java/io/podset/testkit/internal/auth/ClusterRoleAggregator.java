package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.write.ObjectWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The ClusterRole aggregation controller of kube-controller-manager, run synchronously after each
 * ClusterRole commit: a ClusterRole with an {@code aggregationRule} gets, as its rules, the rules
 * of every other ClusterRole its selectors match (for each selector, the matches by name; a rule
 * already present is not repeated); no match removes its rules.
 *
 * <p>Called under the store lock only (nested writes, as the garbage collector's).
 */
final class ClusterRoleAggregator implements ObjectStore.CommitListener {

  private static final String STORAGE = RbacIndex.GROUP + "/clusterroles";

  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final ObjectWrites writes;

  ClusterRoleAggregator(ObjectStore store, ResourceRegistry registry, ObjectWrites writes) {
    this.store = Objects.requireNonNull(store, "store");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  @Override
  public void committed(StoredEvent event) {
    if (!event.storageKey().equals(STORAGE)) {
      return;
    }
    ResourceType type = registry.find(RbacIndex.GROUP, "v1", "clusterroles").orElseThrow();
    List<String> aggregated = new ArrayList<>();
    for (ObjectNode role : store.list(STORAGE, "", null).objects()) {
      if (!selectors(role).isEmpty()) {
        aggregated.add(Json.name(role));
      }
    }
    for (String name : aggregated) {
      // Read again for each: a nested write may have changed what an earlier list returned.
      ObjectNode current = store.get(STORAGE, name);
      if (current == null || selectors(current).isEmpty()) {
        continue;
      }
      ArrayNode desired = aggregate(current);
      JsonNode rules = current.path("rules");
      boolean same = desired.isEmpty() ? rules.isEmpty() : desired.equals(rules);
      if (!same) {
        writes.commitUpdate(
            type,
            null,
            name,
            ObjectWrites.Target.MAIN,
            role -> {
              ObjectNode next = role.deepCopy();
              if (desired.isEmpty()) {
                next.remove("rules");
              } else {
                next.set("rules", desired);
              }
              return next;
            });
      }
    }
  }

  private static List<JsonNode> selectors(JsonNode role) {
    List<JsonNode> selectors = new ArrayList<>();
    role.path("aggregationRule").path("clusterRoleSelectors").forEach(selectors::add);
    return selectors;
  }

  private ArrayNode aggregate(ObjectNode role) {
    ArrayNode rules = Json.MAPPER.createArrayNode();
    List<ObjectNode> all = store.list(STORAGE, "", null).objects();
    for (JsonNode selector : selectors(role)) {
      LabelSelector matcher = LabelSelector.parse(selectorString(selector));
      // The store lists by key, which is the name for cluster-scoped objects.
      for (ObjectNode other : all) {
        if (Json.name(other).equals(Json.name(role)) || !matcher.matches(other)) {
          continue;
        }
        for (JsonNode rule : other.path("rules")) {
          if (!contains(rules, rule)) {
            rules.add(rule.deepCopy());
          }
        }
      }
    }
    return rules;
  }

  private static boolean contains(ArrayNode rules, JsonNode rule) {
    for (JsonNode existing : rules) {
      if (existing.equals(rule)) {
        return true;
      }
    }
    return false;
  }

  /** A {@code metav1.LabelSelector} as the selector syntax {@link LabelSelector} parses. */
  static String selectorString(JsonNode selector) {
    List<String> terms = new ArrayList<>();
    selector
        .path("matchLabels")
        .fields()
        .forEachRemaining(e -> terms.add(e.getKey() + "=" + e.getValue().asText()));
    for (JsonNode expression : selector.path("matchExpressions")) {
      String key = expression.path("key").asText();
      List<String> values = new ArrayList<>();
      expression.path("values").forEach(v -> values.add(v.asText()));
      switch (expression.path("operator").asText()) {
        case "In" -> terms.add(key + " in (" + String.join(",", values) + ")");
        case "NotIn" -> terms.add(key + " notin (" + String.join(",", values) + ")");
        case "Exists" -> terms.add(key);
        case "DoesNotExist" -> terms.add("!" + key);
        default -> terms.add("!" + key + "," + key);
      }
    }
    return String.join(",", terms);
  }
}
