package io.podset.runtime.informer;

import io.podset.runtime.informer.ModelClass.Kind;
import io.podset.runtime.informer.ModelClass.Property;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link FieldProjection} copies an object of one model class at one {@link KeptField}: the
 * properties it keeps there, each with the node of its value, and the empty-by-default ones it
 * resets to a shared empty list or map, in the class's order; whether it copies the additional
 * properties (a node kept whole) or empties them. Made once per class and node, with fast calls of
 * the accessors it uses ({@link Accessors}); the properties it neither keeps nor resets cost
 * nothing per copy. Immutable.
 */
final class CopyPlan {

  /**
   * One property to set on a copy: to the copy of its value at {@code node} (read by {@code get}),
   * or, with no node, to {@code empty}; {@code skipNull} when a new instance already holds null
   * there, so a null value needs no call.
   */
  record Step(
      Function<Object, @Nullable Object> get,
      BiConsumer<Object, @Nullable Object> set,
      @Nullable KeptField node,
      @Nullable Object empty,
      boolean skipNull) {}

  private final Class<?> type;
  private final Supplier<Object> constructor;
  private final Step[] steps;
  private final Function<Object, @Nullable Object> getAdditional;
  private final @Nullable BiConsumer<Object, @Nullable Object> setAdditional;
  private final boolean copiesAdditional;

  CopyPlan(ModelClass model, KeptField node) {
    this.type = model.type();
    this.constructor = Accessors.constructor(model.constructor());
    List<Step> found = new ArrayList<>();
    for (Property property : model.properties().values()) {
      KeptField child = node.whole ? node : node.children.get(property.name());
      if (child != null) {
        found.add(
            new Step(
                Accessors.getter(type, property.getter()),
                Accessors.setter(type, property.setter()),
                child,
                null,
                property.nullByDefault()));
      } else if (property.emptyByDefault()) {
        Object empty = property.kind() == Kind.MAP ? Map.of() : List.of();
        found.add(
            new Step(noGetter(), Accessors.setter(type, property.setter()), null, empty, false));
      }
    }
    this.steps = found.toArray(new Step[0]);
    Method getter = model.additionalPropertiesGetter();
    Method setter = model.additionalPropertiesSetter();
    this.getAdditional = getter == null ? noGetter() : Accessors.getter(type, getter);
    this.setAdditional = setter == null ? null : Accessors.setter(type, setter);
    this.copiesAdditional = node.whole;
  }

  /** The model class this plan copies. */
  Class<?> type() {
    return type;
  }

  /** A new instance, as its constructor leaves it. */
  Object newInstance() {
    return constructor.get();
  }

  /** The properties to set on a copy, in the class's order. */
  Step[] steps() {
    return steps;
  }

  /**
   * Whether the copy keeps the additional properties (else it gets an empty map, if it has any).
   */
  boolean copiesAdditional() {
    return copiesAdditional;
  }

  /** The additional properties of {@code source}: empty if the class has none. */
  Map<?, ?> additionalProperties(Object source) {
    return getAdditional.apply(source) instanceof Map<?, ?> map ? map : Map.of();
  }

  /** Sets the additional properties of {@code copy} to {@code value}, if the class has them. */
  void setAdditionalProperties(Object copy, Map<?, ?> value) {
    if (setAdditional != null) {
      setAdditional.accept(copy, value);
    }
  }

  @Override
  public String toString() {
    return "CopyPlan(" + type.getSimpleName() + ", " + steps.length + " steps)";
  }

  private static Function<Object, @Nullable Object> noGetter() {
    return target -> null;
  }
}
