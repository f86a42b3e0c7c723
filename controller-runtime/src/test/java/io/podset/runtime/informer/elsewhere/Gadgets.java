package io.podset.runtime.informer.elsewhere;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A custom resource whose classes are not public, in a package other than the projection's: its
 * accessors cannot be called from there directly, only reflectively.
 */
public final class Gadgets {

  private Gadgets() {}

  /** The gadget's class. */
  public static Class<? extends HasMetadata> type() {
    return Gadget.class;
  }

  /** A gadget named {@code name} with this spec. */
  public static HasMetadata gadget(String name, String color, int size) {
    Gadget gadget = new Gadget();
    gadget.setMetadata(new ObjectMetaBuilder().withNamespace("web").withName(name).build());
    GadgetSpec spec = new GadgetSpec();
    spec.setColor(color);
    spec.setSize(size);
    gadget.setSpec(spec);
    return gadget;
  }

  @Group("example.com")
  @Version("v1")
  static class Gadget extends CustomResource<GadgetSpec, Void> implements Namespaced {
    public Gadget() {}
  }

  static class GadgetSpec {
    private String color;
    private int size;

    public GadgetSpec() {}

    public String getColor() {
      return color;
    }

    public void setColor(String color) {
      this.color = color;
    }

    public int getSize() {
      return size;
    }

    public void setSize(int size) {
      this.size = size;
    }
  }
}
