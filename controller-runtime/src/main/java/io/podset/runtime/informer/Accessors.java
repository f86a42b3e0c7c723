package io.podset.runtime.informer;

import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Fast calls of a model class's accessors and constructor for {@link CopyPlan}s: classes generated
 * by {@link LambdaMetafactory} that call the method directly, as a lambda does. A projection makes
 * a handful of these calls for every object it copies. On the C1-only JVM the operator ships with,
 * a projection of the operator's pod took 0.28-0.33 of the old (reflective) projection's CPU with
 * these and 0.37-0.41 with {@code MethodHandle}s that are not constants (with C2 both 0.29-0.33;
 * the stop-23 note of issue 23). Members this package may not call (of a class that is not public)
 * or whose classes its class loader does not see fall back to {@code Method.invoke}. Each generated
 * call is a hidden class of a few hundred bytes; plans make them only for the properties they copy
 * or reset.
 */
final class Accessors {

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

  private Accessors() {}

  /** A call of {@code getter} on its argument, an instance of {@code owner}. */
  @SuppressWarnings("unchecked")
  static Function<Object, @Nullable Object> getter(Class<?> owner, Method getter) {
    Class<?> type = getter.getReturnType();
    Function<?, ?> generated =
        Modifier.isPublic(getter.getModifiers()) && visible(owner, type)
            ? generate(
                Function.class,
                "apply",
                MethodType.methodType(Object.class, Object.class),
                () -> LOOKUP.findVirtual(owner, getter.getName(), MethodType.methodType(type)),
                MethodType.methodType(boxed(type), owner))
            : null;
    if (generated != null) {
      return (Function<Object, @Nullable Object>) generated;
    }
    getter.trySetAccessible();
    return target -> invoke(getter, target);
  }

  /**
   * A call of {@code setter} on its first argument, an instance of {@code owner}, with its second.
   */
  @SuppressWarnings("unchecked")
  static BiConsumer<Object, @Nullable Object> setter(Class<?> owner, Method setter) {
    Class<?> type = setter.getParameterTypes()[0];
    BiConsumer<?, ?> generated =
        Modifier.isPublic(setter.getModifiers()) && visible(owner, type)
            ? generate(
                BiConsumer.class,
                "accept",
                MethodType.methodType(void.class, Object.class, Object.class),
                () ->
                    LOOKUP.findVirtual(
                        owner, setter.getName(), MethodType.methodType(void.class, type)),
                MethodType.methodType(void.class, owner, boxed(type)))
            : null;
    if (generated != null) {
      return (BiConsumer<Object, @Nullable Object>) generated;
    }
    setter.trySetAccessible();
    return (target, value) -> invoke(setter, target, value);
  }

  /** A call of the no-argument {@code constructor}. */
  @SuppressWarnings("unchecked")
  static Supplier<Object> constructor(Constructor<?> constructor) {
    Class<?> type = constructor.getDeclaringClass();
    Supplier<?> generated =
        Modifier.isPublic(constructor.getModifiers()) && visible(type)
            ? generate(
                Supplier.class,
                "get",
                MethodType.methodType(Object.class),
                () -> LOOKUP.findConstructor(type, MethodType.methodType(void.class)),
                MethodType.methodType(type))
            : null;
    if (generated != null) {
      return (Supplier<Object>) generated;
    }
    constructor.trySetAccessible();
    return () -> newInstance(constructor);
  }

  /** A reflective call of {@code method}; its failure as an {@link IllegalStateException}. */
  static @Nullable Object invoke(Method method, Object target, @Nullable Object... args) {
    try {
      return method.invoke(target, args);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + method, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("cannot call " + method, e.getCause());
    }
  }

  /** A reflective call of {@code constructor}; its failure as an {@link IllegalStateException}. */
  static Object newInstance(Constructor<?> constructor) {
    String type = constructor.getDeclaringClass().getName();
    try {
      return constructor.newInstance();
    } catch (InstantiationException | IllegalAccessException e) {
      throw new IllegalStateException("cannot create a " + type, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("cannot create a " + type, e.getCause());
    }
  }

  /** Finds a method handle; the lookup checks access as a call from this class would. */
  private interface Find {
    MethodHandle find() throws NoSuchMethodException, IllegalAccessException;
  }

  /**
   * An instance of {@code sam} whose method {@code name} ({@code erased} its type) calls what
   * {@code target} finds, with the arguments and result cast or boxed to {@code instantiated}; null
   * if this class may not call it.
   */
  private static <T> @Nullable T generate(
      Class<T> sam, String name, MethodType erased, Find target, MethodType instantiated) {
    MethodHandle factory;
    try {
      factory =
          LambdaMetafactory.metafactory(
                  LOOKUP, name, MethodType.methodType(sam), erased, target.find(), instantiated)
              .getTarget();
    } catch (NoSuchMethodException | IllegalAccessException | LambdaConversionException e) {
      return null;
    }
    try {
      return sam.cast(factory.invoke());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      // A factory of no arguments returning a new instance declares no checked exception.
      throw new IllegalStateException("cannot make a " + sam.getSimpleName() + " of " + erased, e);
    }
  }

  /**
   * Whether this class's loader finds these very classes: a generated class is defined by it and
   * names them, so the members of a model class from a loader this one does not see (an
   * application's, under a shared runtime) are called reflectively.
   */
  private static boolean visible(Class<?>... types) {
    for (Class<?> type : types) {
      if (type.isPrimitive()) {
        continue;
      }
      try {
        if (Class.forName(type.getName(), false, Accessors.class.getClassLoader()) != type) {
          return false;
        }
      } catch (ClassNotFoundException | LinkageError e) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> boxed(Class<?> type) {
    return MethodType.methodType(type).wrap().returnType();
  }
}
