package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;

/** The common {@link IndexFunction}s and their conventional index names. */
public final class Indexers {

  /** Conventional name of the {@link #byNamespace()} index. */
  public static final String NAMESPACE = "namespace";

  /** Conventional name of the {@link #byControllerUid()} index. */
  public static final String CONTROLLER_UID = "controllerUid";

  private Indexers() {}

  /** Indexes an object by its namespace; cluster-scoped objects are left out. */
  public static <T extends HasMetadata> IndexFunction<T> byNamespace() {
    return obj -> {
      String namespace = obj.getMetadata().getNamespace();
      return namespace == null || namespace.isEmpty() ? List.of() : List.of(namespace);
    };
  }

  /**
   * Indexes an object by the UID of its controller owner (the owner reference with {@code
   * controller: true}); objects without a controller are left out.
   */
  public static <T extends HasMetadata> IndexFunction<T> byControllerUid() {
    return obj -> {
      List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
      if (refs == null) {
        return List.of();
      }
      for (OwnerReference ref : refs) {
        if (Boolean.TRUE.equals(ref.getController()) && ref.getUid() != null) {
          return List.of(ref.getUid());
        }
      }
      return List.of();
    };
  }
}
