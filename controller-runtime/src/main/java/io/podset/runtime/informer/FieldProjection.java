package io.podset.runtime.informer;

import com.fasterxml.jackson.core.filter.TokenFilter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.informer.ModelClass.Kind;
import io.podset.runtime.informer.ModelClass.Property;
import java.util.Collection;
import java.util.HashMap;
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
 *
 * <p>The paths make a tree of {@link KeptField}s; an object is copied by the {@link CopyPlan} of
 * its class at its node, which calls only the accessors of the properties kept or reset there (see
 * {@link ProjectionCopies}).
 */
final class FieldProjection implements UnaryOperator<HasMetadata> {

  private static final Set<String> UNIQUE_VALUES =
      Set.of("metadata.name", "metadata.uid", "metadata.resourceVersion");

  private final Class<? extends HasMetadata> type;
  private final KeptField root;
  private final boolean keepsManagedFields;
  private final TokenFilter decodeFilter;

  /**
   * @throws IllegalArgumentException if a path is empty or malformed, or names a field that {@code
   *     type} does not have
   */
  FieldProjection(Class<? extends HasMetadata> type, Collection<String> paths) {
    this.type = Objects.requireNonNull(type, "type");
    Objects.requireNonNull(paths, "paths");
    this.root = new KeptField(false);
    ModelClass model = ModelClass.of(type);
    for (String path : Projections.ALWAYS_KEPT) {
      add(model, path);
    }
    for (String path : paths) {
      add(model, Objects.requireNonNull(path, "path"));
    }
    KeptField metadata =
        Objects.requireNonNull(root.children.get("metadata"), "metadata is always kept");
    this.keepsManagedFields = metadata.whole || (metadata.children.containsKey("managedFields"));
    this.decodeFilter = new Skip(root);
    root.prepare(type);
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
    Class<?> actual = obj.getClass();
    CopyPlan plan = root.isDeclared(actual) ? root.declaredPlan() : root.plan(actual).orElse(null);
    if (plan == null) {
      throw new IllegalArgumentException(actual.getName() + " is not a model class");
    }
    return (HasMetadata) ProjectionCopies.copy(obj, plan, root);
  }

  @Override
  public String toString() {
    return "Projections.keep(" + type.getSimpleName() + ", " + root + ")";
  }

  private void add(ModelClass rootModel, String text) {
    FieldPath path = FieldPath.parse(text);
    ModelClass model = rootModel;
    KeptField node = root;
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
              segment.name(), k -> new KeptField(!UNIQUE_VALUES.contains(prefix)));
      model =
          property.kind() == Kind.MODEL || property.kind() == Kind.LIST
              ? ModelClass.find(property.element()).orElse(null)
              : null;
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
      FieldPath path, String prefix, ModelClass element, KeptField node, String selector) {
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
    node.filters.add(
        new KeptField.Filter(
            element.type(),
            field,
            Accessors.getter(element.type(), property.getter()),
            selector.substring(equals + 1)));
    node.children.computeIfAbsent(field, k -> new KeptField(true)).whole = true;
  }

  private static IllegalArgumentException invalid(FieldPath path, String why) {
    return new IllegalArgumentException("field path '" + path.text() + "': " + why);
  }

  /**
   * The {@link #decodeFilter} of one node: for an object (or each element of a list of objects),
   * its kept fields; for a map with kept keys, those entries; everything of a node kept whole.
   */
  private static final class Skip extends TokenFilter {
    private final Map<String, TokenFilter> fields = new HashMap<>();
    private final Set<String> keys;

    Skip(KeptField node) {
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
}
