package io.podset.runtime.informer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FieldProjection} keeps of one field: all of it ({@code whole}) or, of an object (or
 * of each element of a list of objects), the fields of {@code children}; of a map, the entries of
 * {@code keys} unless {@code allEntries}; of a list, the elements one of {@code filters} selects
 * unless {@code allEntries}. A field kept whole stands for its whole subtree: its objects' fields
 * are copied through this same node.
 *
 * <p>Also how to copy the objects found here: a {@link CopyPlan} per model class, made the first
 * time an object of that class is copied through this node, so a class seen through two nodes has
 * two plans; the plan of the field's declared class is made when the projection is built, and found
 * without a lookup. The tree is filled by the projection's constructor, then only read; plans are
 * immutable, so the node is thread-safe once its projection is built.
 */
final class KeptField {

  final Map<String, KeptField> children = new HashMap<>();
  final Set<String> keys = new HashSet<>();
  final List<Filter> filters = new ArrayList<>();
  final boolean intern;
  boolean whole;
  boolean allEntries;

  // The class the field declares (of a list's elements, of a map's values) if a value of exactly
  // that class is copied by declaredPlan (a model class) or kept as is (declaredPlan null: a class
  // that is no model, string, list or map); null for other classes. Set by prepare, when the tree
  // is complete: the common case then skips the lookup in plans.
  private @Nullable Class<?> declared;
  private @Nullable CopyPlan declaredPlan;

  private final ClassValue<Optional<CopyPlan>> plans =
      new ClassValue<>() {
        @Override
        protected Optional<CopyPlan> computeValue(Class<?> type) {
          return ModelClass.find(type).map(model -> new CopyPlan(model, KeptField.this));
        }
      };

  KeptField(boolean intern) {
    this.intern = intern;
  }

  /**
   * Makes the plans of the declared classes of this node and of the nodes under it, {@code type}
   * being this one's; called once, when the tree is complete.
   */
  void prepare(Class<?> type) {
    ModelClass model = ModelClass.find(type).orElse(null);
    if (model != null) {
      declared = type;
      declaredPlan = plans.get(type).orElseThrow();
    } else if (keptAsIs(type)) {
      declared = type;
    }
    if (model == null || whole) {
      return;
    }
    children.forEach(
        (name, child) -> {
          ModelClass.Property property = model.properties().get(name);
          if (property != null) {
            child.prepare(property.element());
          }
        });
  }

  /**
   * Whether {@code type} is the class this field declares and a model class (then {@link
   * #declaredPlan} copies it) or a class kept as is ({@code declaredPlan} is null).
   */
  boolean isDeclared(Class<?> type) {
    return type == declared;
  }

  /** The plan of the declared class; see {@link #isDeclared}. */
  @Nullable CopyPlan declaredPlan() {
    return declaredPlan;
  }

  /** How to copy an object of {@code type} here, or empty if {@code type} is no model class. */
  Optional<CopyPlan> plan(Class<?> type) {
    return plans.get(type);
  }

  private static boolean keptAsIs(Class<?> type) {
    return type != String.class
        && type != Object.class
        && !Collection.class.isAssignableFrom(type)
        && !Map.class.isAssignableFrom(type);
  }

  /** Whether this node's list filters select {@code element}. */
  boolean selects(@Nullable Object element) {
    if (element == null) {
      return false;
    }
    for (Filter filter : filters) {
      if (filter.appliesTo(element) && filter.value().equals(filter.field().apply(element))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return whole ? "*" : children + (keys.isEmpty() ? "" : keys.toString()) + filters;
  }

  /**
   * An element filter of a list: elements (of model class {@code type} or a model subclass of it)
   * whose string field {@code field} equals {@code value}.
   */
  record Filter(
      Class<?> type, String name, Function<Object, @Nullable Object> field, String value) {

    boolean appliesTo(Object element) {
      Class<?> c = element.getClass();
      return c == type || (type.isInstance(element) && ModelClass.find(c).isPresent());
    }

    @Override
    public String toString() {
      return name + "=" + value;
    }
  }
}
