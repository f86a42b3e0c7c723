package io.podset.runtime.informer;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One Jackson-bound model class (a fabric8 model type, a custom resource and its spec and status):
 * its JSON properties that have both a getter and a setter, its additional-properties map if it has
 * one, and its no-argument constructor. Classes with their own Jackson deserializer ({@code
 * Quantity}, {@code IntOrString}) are not model classes: a projection keeps them whole. Found once
 * per class; thread-safe and immutable.
 */
final class ModelClass {

  /** What a property holds, as far as copying it goes. */
  enum Kind {
    STRING,
    LIST,
    MAP,
    MODEL,
    /** Anything else (numbers, booleans, opaque types): kept as is. */
    VALUE
  }

  /**
   * A property: its JSON name, accessors and kind; {@code element} is the class of its value, of a
   * list's elements or of a map's values; {@code emptyByDefault} when a new instance holds an empty
   * list or map there (fabric8 allocates one per list property), {@code nullByDefault} when it
   * holds null. The accessors are reflective: {@link CopyPlan}s make fast calls of the ones they
   * use.
   */
  record Property(
      String name,
      Method getter,
      Method setter,
      Kind kind,
      Class<?> element,
      boolean emptyByDefault,
      boolean nullByDefault) {}

  // Only reads annotations (property names, types, custom deserializers); never (de)serializes.
  private static final ObjectMapper MAPPER = new ObjectMapper();

  // Empty for a class that is no model class. The check asks Jackson's introspection, which cost a
  // third of a projection's time when it ran on every copied object (a converge profile).
  private static final ClassValue<Optional<ModelClass>> CLASSES =
      new ClassValue<>() {
        @Override
        protected Optional<ModelClass> computeValue(Class<?> type) {
          return isModel(type) ? Optional.of(new ModelClass(type)) : Optional.empty();
        }
      };

  private final Class<?> type;
  private final Constructor<?> constructor;
  private final Map<String, Property> properties;
  // Both null when the class has no additional properties.
  private final @Nullable Method getAdditionalProperties;
  private final @Nullable Method setAdditionalProperties;

  private ModelClass(Class<?> type) {
    this.type = type;
    try {
      this.constructor = accessible(type.getConstructor());
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(type.getName() + " has no public no-argument constructor");
    }
    Object defaults = Accessors.newInstance(constructor);
    BeanDescription description =
        MAPPER.getSerializationConfig().introspect(MAPPER.constructType(type));
    Map<String, Property> found = new LinkedHashMap<>();
    for (BeanPropertyDefinition p : description.findProperties()) {
      if (!p.hasGetter() || !p.hasSetter()) {
        continue;
      }
      Method getter = accessible(p.getGetter().getAnnotated());
      Method setter = accessible(p.getSetter().getAnnotated());
      JavaType javaType = p.getPrimaryType();
      Kind kind = kindOf(javaType);
      Class<?> element =
          kind == Kind.LIST || kind == Kind.MAP
              ? javaType.getContentType().getRawClass()
              : javaType.getRawClass();
      Object initial = Accessors.invoke(getter, defaults);
      boolean empty =
          (initial instanceof Collection<?> c && c.isEmpty())
              || (initial instanceof Map<?, ?> m && m.isEmpty());
      found.put(
          p.getName(),
          new Property(p.getName(), getter, setter, kind, element, empty, initial == null));
    }
    this.properties = Collections.unmodifiableMap(found);
    Method getAdditional;
    Method setAdditional;
    try {
      getAdditional = accessible(type.getMethod("getAdditionalProperties"));
      setAdditional = accessible(type.getMethod("setAdditionalProperties", Map.class));
    } catch (NoSuchMethodException e) {
      getAdditional = null;
      setAdditional = null;
    }
    this.getAdditionalProperties = getAdditional;
    this.setAdditionalProperties = setAdditional;
  }

  /**
   * The model class of {@code type}.
   *
   * @throws IllegalArgumentException if {@code type} is not a model class ({@link #isModel})
   */
  static ModelClass of(Class<?> type) {
    return find(type)
        .orElseThrow(() -> new IllegalArgumentException(type.getName() + " is not a model class"));
  }

  /** The model class of {@code type}, or empty if it is none; found once per class. */
  static Optional<ModelClass> find(Class<?> type) {
    return CLASSES.get(type);
  }

  /**
   * Whether {@code type} is a concrete, publicly constructible class outside the JDK without its
   * own Jackson deserializer: one whose JSON properties are its bean properties.
   */
  static boolean isModel(Class<?> type) {
    if (type.isPrimitive()
        || type.isArray()
        || type.isEnum()
        || type.isInterface()
        || Modifier.isAbstract(type.getModifiers())
        || type.getName().startsWith("java.")) {
      return false;
    }
    try {
      type.getConstructor();
    } catch (NoSuchMethodException e) {
      return false;
    }
    BeanDescription description =
        MAPPER.getDeserializationConfig().introspect(MAPPER.constructType(type));
    return MAPPER
            .getDeserializationConfig()
            .getAnnotationIntrospector()
            .findDeserializer(description.getClassInfo())
        == null;
  }

  Class<?> type() {
    return type;
  }

  /** The properties by JSON name, in the class's order. */
  Map<String, Property> properties() {
    return properties;
  }

  /** The public no-argument constructor. */
  Constructor<?> constructor() {
    return constructor;
  }

  /** The getter of the additional-properties map, or null if the class has none. */
  @Nullable Method additionalPropertiesGetter() {
    return getAdditionalProperties;
  }

  /** The setter of the additional-properties map, or null if the class has none. */
  @Nullable Method additionalPropertiesSetter() {
    return setAdditionalProperties;
  }

  private static Kind kindOf(JavaType type) {
    if (type.isCollectionLikeType()) {
      return Kind.LIST;
    }
    if (type.isMapLikeType()) {
      return Kind.MAP;
    }
    if (type.getRawClass() == String.class) {
      return Kind.STRING;
    }
    return isModel(type.getRawClass()) ? Kind.MODEL : Kind.VALUE;
  }

  /**
   * {@code member} with the language's access checks off where the module system allows: {@link
   * Accessors} calls the members it cannot make fast calls of (of classes that are not public)
   * reflectively, and with the checks on, converge profiles on the simulated cluster spent 2-6% of
   * the operator's CPU samples in {@code AccessibleObject.checkAccess} when every call was
   * reflective. The members are the ones a projection calls anyway (the public constructor,
   * Jackson's accessors): this only skips checking them again on every call.
   */
  private static <T extends AccessibleObject> T accessible(T member) {
    member.trySetAccessible();
    return member;
  }
}
