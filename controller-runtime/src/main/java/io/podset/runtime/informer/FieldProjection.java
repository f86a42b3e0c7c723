package io.podset.runtime.informer;

import com.fasterxml.jackson.core.filter.TokenFilter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.informer.ModelClass.Kind;
import io.podset.runtime.informer.ModelClass.Property;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The transform of {@link Projections#keep}: a new object of the same class holding only the kept
 * fields, with immutable, exactly sized lists and maps, shared empty ones for the fields dropped,
 * no additional properties outside kept subtrees, and interned strings except the values unique to
 * one object ({@code metadata.name}, {@code uid}, {@code resourceVersion}), so that the pods of one
 * owner share their labels', owner references' and images' strings. Thread-safe: the kept fields
 * are fixed at construction.
 */
final class FieldProjection implements UnaryOperator<HasMetadata> {

  private static final Set<String> UNIQUE_VALUES =
      Set.of("metadata.name", "metadata.uid", "metadata.resourceVersion");

  // Whether a class is a model class, found once per class (it asks Jackson's introspection).
  private static final ClassValue<Boolean> MODELS =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return ModelClass.isModel(type);
        }
      };

  private final Class<? extends HasMetadata> type;
  private final Node root;
  private final boolean keepsManagedFields;
  private final TokenFilter decodeFilter;

  /**
   * @throws IllegalArgumentException if a path is empty or malformed, or names a field that {@code
   *     type} does not have
   */
  FieldProjection(Class<? extends HasMetadata> type, Collection<String> paths) {
    this.type = Objects.requireNonNull(type, "type");
    Objects.requireNonNull(paths, "paths");
    this.root = new Node(false);
    ModelClass model = ModelClass.of(type);
    for (String path : Projections.ALWAYS_KEPT) {
      add(model, path);
    }
    for (String path : paths) {
      add(model, Objects.requireNonNull(path, "path"));
    }
    Node metadata =
        Objects.requireNonNull(root.children.get("metadata"), "metadata is always kept");
    this.keepsManagedFields = metadata.whole || (metadata.children.containsKey("managedFields"));
    this.decodeFilter = new Skip(root);
  }

  /**
   * What a decoder of this projection's objects may skip: a Jackson filter of one object's JSON
   * that passes every field this projection reads (kept fields, map keys, the fields list filters
   * test) and drops the others, keeping an object or list on a kept path even when nothing of it is
   * kept (its copy is an empty object, not null). Lists keep all their elements: their filters are
   * applied by {@link #apply}. So {@code apply} of the object decoded through it equals {@code
   * apply} of the fully decoded object. Thread-safe and stateless.
   */
  TokenFilter decodeFilter() {
    return decodeFilter;
  }

  /** Whether {@code metadata.managedFields} survive this projection. */
  boolean keepsManagedFields() {
    return keepsManagedFields;
  }

  /**
   * The projection of {@code obj}.
   *
   * @throws IllegalArgumentException if {@code obj} is not of this projection's type
   */
  @Override
  public HasMetadata apply(HasMetadata obj) {
    Objects.requireNonNull(obj, "obj");
    if (!type.isInstance(obj)) {
      throw new IllegalArgumentException(
          "projection of "
              + type.getSimpleName()
              + " fields applied to a "
              + obj.getClass().getName());
    }
    return (HasMetadata) copyModel(obj, root);
  }

  @Override
  public String toString() {
    return "Projections.keep(" + type.getSimpleName() + ", " + root + ")";
  }

  private void add(ModelClass rootModel, String text) {
    FieldPath path = FieldPath.parse(text);
    ModelClass model = rootModel;
    Node node = root;
    List<FieldPath.Segment> segments = path.segments();
    for (int i = 0; i < segments.size(); i++) {
      FieldPath.Segment segment = segments.get(i);
      if (model == null) {
        throw invalid(path, "'" + path.prefix(i - 1) + "' has no fields");
      }
      Property property = model.properties().get(segment.name());
      if (property == null) {
        throw invalid(
            path,
            model.type().getSimpleName()
                + " has no field '"
                + segment.name()
                + "' (it has "
                + model.properties().keySet()
                + ")");
      }
      String prefix = path.prefix(i);
      node =
          node.children.computeIfAbsent(
              segment.name(), k -> new Node(!UNIQUE_VALUES.contains(prefix)));
      boolean entersModel =
          (property.kind() == Kind.MODEL || property.kind() == Kind.LIST)
              && MODELS.get(property.element());
      model = entersModel ? ModelClass.of(property.element()) : null;
      if (segment.selector() == null) {
        node.allEntries = true;
      } else if (property.kind() == Kind.MAP) {
        if (i < segments.size() - 1) {
          throw invalid(path, "a map entry '" + prefix + "' ends the path");
        }
        node.keys.add(segment.selector());
        return;
      } else if (property.kind() == Kind.LIST && model != null) {
        addFilter(path, prefix, model, node, segment.selector());
      } else {
        throw invalid(
            path, "'" + prefix + "' is not a map nor a list of objects, so it takes no [selector]");
      }
    }
    node.whole = true;
  }

  /** Keeps only the elements whose string field {@code field=value}; keeps that field too. */
  private static void addFilter(
      FieldPath path, String prefix, ModelClass element, Node node, String selector) {
    int equals = selector.indexOf('=');
    String field = equals < 0 ? "" : selector.substring(0, equals);
    Property property = element.properties().get(field);
    if (property == null || property.kind() != Kind.STRING) {
      throw invalid(
          path,
          "'"
              + prefix
              + "' needs a selector 'field=value' on a string field of "
              + element.type().getSimpleName());
    }
    node.filters.add(new Filter(property, selector.substring(equals + 1)));
    node.children.computeIfAbsent(field, k -> new Node(true)).whole = true;
  }

  private static IllegalArgumentException invalid(FieldPath path, String why) {
    return new IllegalArgumentException("field path '" + path.text() + "': " + why);
  }

  private Object copyModel(Object source, Node node) {
    ModelClass model = ModelClass.of(source.getClass());
    Object copy = model.newInstance();
    for (Property property : model.properties().values()) {
      Node child = node.whole ? node : node.children.get(property.name());
      if (child == null) {
        if (property.emptyByDefault()) {
          property.set(copy, property.kind() == Kind.MAP ? Map.of() : List.of());
        }
        continue;
      }
      property.set(copy, copyValue(property.get(source), child));
    }
    model.setAdditionalProperties(
        copy, node.whole ? copyMap(model.additionalProperties(source), node) : Map.of());
    return copy;
  }

  @SuppressWarnings("unchecked")
  private @Nullable Object copyValue(@Nullable Object value, Node node) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return node.intern ? s.intern() : s;
    }
    if (value instanceof Collection<?> c) {
      return copyList(c, node);
    }
    if (value instanceof Map<?, ?> m) {
      return copyMap((Map<Object, Object>) m, node);
    }
    return MODELS.get(value.getClass()) ? copyModel(value, node) : value;
  }

  private List<Object> copyList(Collection<?> list, Node node) {
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
    if (n < items.length) {
      items = Arrays.copyOf(items, n);
    }
    if (nulls) {
      return Collections.unmodifiableList(Arrays.asList(items));
    }
    // One element (a pod's container, owner, condition): 16 bytes instead of List.of's 24.
    return items.length == 1 ? Collections.singletonList(items[0]) : List.of(items);
  }

  @SuppressWarnings("unchecked")
  private <K, V> Map<K, V> copyMap(Map<?, ?> map, Node node) {
    if (map.isEmpty()) {
      return Map.of();
    }
    boolean filtered = !node.whole && !node.allEntries && !node.keys.isEmpty();
    Map<Object, Object> copy = new LinkedHashMap<>(map.size() * 2);
    boolean nulls = false;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (filtered && !node.keys.contains(entry.getKey())) {
        continue;
      }
      Object value = copyValue(entry.getValue(), node);
      copy.put(copyValue(entry.getKey(), node), value);
      nulls |= value == null || entry.getKey() == null;
    }
    if (copy.isEmpty()) {
      return Map.of();
    }
    return (Map<K, V>) (nulls ? Collections.unmodifiableMap(copy) : Map.copyOf(copy));
  }

  /**
   * The {@link #decodeFilter} of one node: for an object (or each element of a list of objects),
   * its kept fields; for a map with kept keys, those entries; everything of a node kept whole.
   */
  private static final class Skip extends TokenFilter {
    private final Map<String, TokenFilter> fields = new HashMap<>();
    private final Set<String> keys;

    Skip(Node node) {
      this.keys = node.keys;
      node.children.forEach(
          (name, child) ->
              fields.put(name, child.whole ? TokenFilter.INCLUDE_ALL : new Skip(child)));
    }

    @Override
    public @Nullable TokenFilter includeProperty(String name) {
      if (!keys.isEmpty()) {
        return keys.contains(name) ? TokenFilter.INCLUDE_ALL : null;
      }
      return fields.get(name);
    }

    @Override
    public boolean includeEmptyObject(boolean contentsFiltered) {
      return true;
    }

    @Override
    public boolean includeEmptyArray(boolean contentsFiltered) {
      return true;
    }
  }

  /** An element filter of a list: elements whose {@code field} equals {@code value}. */
  private record Filter(Property field, String value) {}

  /**
   * What is kept of one field: all of it ({@code whole}) or, of an object (or of each element of a
   * list of objects), the fields of {@code children}; of a map, the entries of {@code keys} unless
   * {@code allEntries}; of a list, the elements one of {@code filters} selects unless {@code
   * allEntries}. Filled at construction, then only read.
   */
  private static final class Node {
    final Map<String, Node> children = new HashMap<>();
    final Set<String> keys = new HashSet<>();
    final List<Filter> filters = new ArrayList<>();
    final boolean intern;
    boolean whole;
    boolean allEntries;

    Node(boolean intern) {
      this.intern = intern;
    }

    boolean selects(Object element) {
      for (Filter filter : filters) {
        if (element != null
            && MODELS.get(element.getClass())
            && filter.value().equals(filter.field().get(element))) {
          return true;
        }
      }
      return false;
    }

    @Override
    public String toString() {
      return whole ? "*" : children + (keys.isEmpty() ? "" : keys.toString()) + filters;
    }
  }
}
