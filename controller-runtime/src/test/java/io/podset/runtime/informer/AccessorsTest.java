package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.podset.runtime.informer.elsewhere.Gadgets;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class AccessorsTest {

  /** A public model with primitive properties, which the generated calls box and unbox. */
  public static class Counter {
    private int count;
    private boolean on;

    public Counter() {}

    public int getCount() {
      return count;
    }

    public void setCount(int count) {
      this.count = count;
    }

    public boolean isOn() {
      return on;
    }

    public void setOn(boolean on) {
      this.on = on;
    }
  }

  @Test
  void accessorsOfAPublicClass_boxAndUnboxPrimitives() throws Exception {
    Object counter = Accessors.constructor(Counter.class.getConstructor()).get();

    Accessors.setter(Counter.class, Counter.class.getMethod("setCount", int.class))
        .accept(counter, 7);
    Accessors.setter(Counter.class, Counter.class.getMethod("setOn", boolean.class))
        .accept(counter, true);

    assertThat(counter).isExactlyInstanceOf(Counter.class);
    assertThat(Accessors.getter(Counter.class, Counter.class.getMethod("getCount")).apply(counter))
        .isEqualTo(7);
    assertThat(Accessors.getter(Counter.class, Counter.class.getMethod("isOn")).apply(counter))
        .isEqualTo(true);
  }

  @Test
  void accessorsOfAClassThisPackageCannotCall_fallBackToReflectiveCalls() throws Exception {
    HasMetadata gadget = Gadgets.gadget("g", "red", 3);
    Class<?> type = Gadgets.type();
    Object spec = ((CustomResource<?, ?>) gadget).getSpec();
    Class<?> specType = spec.getClass();

    Object created = Accessors.constructor(type.getConstructor()).get();
    Object metadata = Accessors.getter(type, type.getMethod("getMetadata")).apply(gadget);
    Accessors.setter(specType, specType.getMethod("setSize", int.class)).accept(spec, 5);

    assertThat(created).isExactlyInstanceOf(type);
    assertThat(((ObjectMeta) metadata).getName()).isEqualTo("g");
    assertThat(Accessors.getter(specType, specType.getMethod("getSize")).apply(spec)).isEqualTo(5);
  }

  @Test
  void accessorsOfAClassFromALoaderThisOneDoesNotSee_fallBackToReflectiveCalls() throws Exception {
    Class<?> counter = new OwnCopy(Counter.class).loadClass(Counter.class.getName());
    assertThat(counter).isNotSameAs(Counter.class);

    Object created = Accessors.constructor(counter.getConstructor()).get();
    Accessors.setter(counter, counter.getMethod("setCount", int.class)).accept(created, 3);

    assertThat(created).isExactlyInstanceOf(counter);
    assertThat(Accessors.getter(counter, counter.getMethod("getCount")).apply(created))
        .isEqualTo(3);
  }

  /** A class loader that defines its own copy of one class and delegates the others. */
  private static final class OwnCopy extends ClassLoader {
    private final Class<?> copied;

    OwnCopy(Class<?> copied) {
      super(copied.getClassLoader());
      this.copied = copied;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.equals(copied.getName())) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded != null) {
          return loaded;
        }
        String file = name.replace('.', '/') + ".class";
        try (InputStream in = copied.getClassLoader().getResourceAsStream(file)) {
          if (in == null) {
            throw new ClassNotFoundException(file);
          }
          byte[] bytes = in.readAllBytes();
          return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new ClassNotFoundException(file, e);
        }
      }
    }
  }
}
