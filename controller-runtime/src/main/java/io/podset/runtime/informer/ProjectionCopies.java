package io.podset.runtime.informer;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The copying of a {@link FieldProjection}: an object's kept fields by its {@link CopyPlan},
 * recursively; lists and maps as immutable, exactly sized copies holding the copies of their kept
 * elements or entries (a list's elements that its filters select, a map's kept keys), with interned
 * strings where the node says so. A list or map with a null element, key or value is an
 * unmodifiable view of a copy instead (the immutable collections refuse null).
 */
final class ProjectionCopies {

  private ProjectionCopies() {}

  /** The copy of {@code source}, an object of the class of {@code plan}, at {@code node}. */
  static Object copy(Object source, CopyPlan plan, KeptField node) {
    Object copy = plan.newInstance();
    for (CopyPlan.Step step : plan.steps()) {
      KeptField child = step.node();
      if (child == null) {
        step.set().accept(copy, step.empty());
        continue;
      }
      Object value = step.get().apply(source);
      if (value != null || !step.skipNull()) {
        step.set().accept(copy, copyValue(value, child));
      }
    }
    plan.setAdditionalProperties(
        copy,
        plan.copiesAdditional() ? copyMap(plan.additionalProperties(source), node) : Map.of());
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static @Nullable Object copyValue(@Nullable Object value, KeptField node) {
    if (value == null) {
      return null;
    }
    if (node.isDeclared(value.getClass())) {
      CopyPlan plan = node.declaredPlan();
      return plan == null ? value : copy(value, plan, node);
    }
    if (value instanceof String s) {
      return node.intern ? InternCache.intern(s) : s;
    }
    if (value instanceof Collection<?> c) {
      return copyList(c, node);
    }
    if (value instanceof Map<?, ?> m) {
      return copyMap((Map<Object, Object>) m, node);
    }
    Optional<CopyPlan> plan = node.plan(value.getClass());
    return plan.isPresent() ? copy(value, plan.get(), node) : value;
  }

  private static List<Object> copyList(Collection<?> list, KeptField node) {
    if (list.isEmpty()) {
      return List.of();
    }
    boolean filtered = !node.whole && !node.allEntries && !node.filters.isEmpty();
    Object[] items = new Object[list.size()];
    boolean nulls = false;
    int n = 0;
    for (Object item : list) {
      if (filtered && !node.selects(item)) {
        continue;
      }
      items[n++] = copyValue(item, node);
      nulls |= item == null;
    }
    if (n == 0) {
      return List.of();
    }
    if (n < items.length) {
      items = Arrays.copyOf(items, n);
    }
    if (nulls) {
      return Collections.unmodifiableList(Arrays.asList(items));
    }
    // One element (a pod's container, owner, condition): 16 bytes instead of List.of's 24.
    return n == 1 ? Collections.singletonList(items[0]) : List.of(items);
  }

  /**
   * An immutable copy of the entries of {@code map} that {@code node} keeps: of its {@code keys}
   * only, looked up (a map filtered to a key or two need not be walked), or of all.
   */
  @SuppressWarnings("unchecked")
  private static <K, V> Map<K, V> copyMap(Map<?, ?> map, KeptField node) {
    if (map.isEmpty()) {
      return Map.of();
    }
    boolean filtered = !node.whole && !node.allEntries && !node.keys.isEmpty();
    int size = filtered ? Math.min(map.size(), node.keys.size()) : map.size();
    Object[] keys = new Object[size];
    Object[] values = new Object[size];
    int n = 0;
    boolean nulls = false;
    if (filtered) {
      for (String key : node.keys) {
        Object value = map.get(key);
        if ((value != null || map.containsKey(key)) && n < size) {
          keys[n] = copyValue(key, node);
          values[n] = copyValue(value, node);
          nulls |= value == null;
          n++;
        }
      }
    } else {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        keys[n] = copyValue(entry.getKey(), node);
        values[n] = copyValue(entry.getValue(), node);
        nulls |= keys[n] == null || values[n] == null;
        n++;
      }
    }
    if (n == 0) {
      return Map.of();
    }
    if (nulls) {
      Map<Object, Object> copy = new LinkedHashMap<>(n * 2);
      for (int i = 0; i < n; i++) {
        copy.put(keys[i], values[i]);
      }
      return (Map<K, V>) Collections.unmodifiableMap(copy);
    }
    if (n == 1) {
      return (Map<K, V>) Map.of(keys[0], values[0]);
    }
    Map.Entry<Object, Object>[] entries = new Map.Entry[n];
    for (int i = 0; i < n; i++) {
      entries[i] = Map.entry(keys[i], values[i]);
    }
    return (Map<K, V>) Map.ofEntries(entries);
  }
}
