package io.podset.runtime.ownership;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sets, reads and removes owner references, with the rules the API server and garbage collector
 * apply.
 *
 * <p>A reference is identified by the owner's API group, kind and name (the version is ignored, as
 * Kubernetes does, so an owner reference written under an older version is recognised). The owner's
 * {@code uid} must be set: references are resolved by uid.
 */
public final class OwnerReferences {

  private OwnerReferences() {}

  /**
   * Makes {@code owner} the controller of {@code dependent}: adds or replaces the reference to
   * {@code owner} with {@code controller=true} and {@code blockOwnerDeletion=true}, so the garbage
   * collector deletes the dependent with its owner and foreground deletion waits for it.
   *
   * @throws OwnershipException if another object already controls {@code dependent}, if a
   *     cluster-scoped dependent would get a namespaced owner, or if the two live in different
   *     namespaces
   * @throws IllegalArgumentException if the owner has no uid, name or kind
   */
  public static void setControllerReference(HasMetadata owner, HasMetadata dependent) {
    validateOwner(owner, dependent);
    Optional<OwnerReference> current = getControllerOf(dependent);
    if (current.isPresent() && !refersTo(current.get(), owner)) {
      OwnerReference other = current.get();
      throw new OwnershipException(
          describe(dependent)
              + " is already controlled by "
              + other.getKind()
              + " "
              + other.getName()
              + " (uid "
              + other.getUid()
              + "); refusing to make "
              + owner.getKind()
              + " "
              + owner.getMetadata().getName()
              + " its controller");
    }
    upsert(dependent, referenceTo(owner, true));
  }

  /**
   * Adds or updates a non-controller reference to {@code owner}; an existing reference to the same
   * owner keeps its {@code controller} flag.
   *
   * @throws OwnershipException for a namespaced owner of a cluster-scoped dependent or a
   *     cross-namespace reference
   */
  public static void setOwnerReference(HasMetadata owner, HasMetadata dependent) {
    validateOwner(owner, dependent);
    OwnerReference reference = referenceTo(owner, false);
    for (OwnerReference existing : references(dependent)) {
      if (refersTo(existing, owner)) {
        reference.setController(existing.getController());
        reference.setBlockOwnerDeletion(existing.getBlockOwnerDeletion());
      }
    }
    upsert(dependent, reference);
  }

  /**
   * Removes every reference to {@code owner} from {@code dependent}.
   *
   * @return true when a reference was removed
   */
  public static boolean removeOwnerReference(HasMetadata owner, HasMetadata dependent) {
    Objects.requireNonNull(owner, "owner");
    List<OwnerReference> references = dependent.getMetadata().getOwnerReferences();
    return references != null && references.removeIf(ref -> refersTo(ref, owner));
  }

  /** The reference with {@code controller=true}, if any. */
  public static Optional<OwnerReference> getControllerOf(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    for (OwnerReference reference : references(object)) {
      if (Boolean.TRUE.equals(reference.getController())) {
        return Optional.of(reference);
      }
    }
    return Optional.empty();
  }

  /** True when {@code owner} (matched by uid) is the controller of {@code dependent}. */
  public static boolean isControlledBy(HasMetadata dependent, HasMetadata owner) {
    Objects.requireNonNull(owner, "owner");
    String uid = owner.getMetadata() == null ? null : owner.getMetadata().getUid();
    return uid != null
        && getControllerOf(dependent).map(ref -> uid.equals(ref.getUid())).orElse(false);
  }

  /** The API group of an {@code apiVersion} ({@code ""} for the core group). */
  public static String groupOf(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static OwnerReference referenceTo(HasMetadata owner, boolean controller) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(controller ? Boolean.TRUE : null)
        .withBlockOwnerDeletion(controller ? Boolean.TRUE : null)
        .build();
  }

  private static void upsert(HasMetadata dependent, OwnerReference reference) {
    ObjectMeta meta = dependent.getMetadata();
    List<OwnerReference> references =
        meta.getOwnerReferences() == null
            ? new ArrayList<>()
            : new ArrayList<>(meta.getOwnerReferences());
    boolean replaced = false;
    for (int i = 0; i < references.size(); i++) {
      if (sameOwner(references.get(i), reference)) {
        references.set(i, reference);
        replaced = true;
      }
    }
    if (!replaced) {
      references.add(reference);
    }
    meta.setOwnerReferences(references);
  }

  private static void validateOwner(HasMetadata owner, HasMetadata dependent) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(dependent, "dependent");
    ObjectMeta ownerMeta = Objects.requireNonNull(owner.getMetadata(), "owner.metadata");
    if (dependent.getMetadata() == null) {
      dependent.setMetadata(new ObjectMeta());
    }
    requireText(owner.getKind(), "owner.kind");
    requireText(owner.getApiVersion(), "owner.apiVersion");
    requireText(ownerMeta.getName(), "owner.metadata.name");
    requireText(ownerMeta.getUid(), "owner.metadata.uid");
    String ownerNamespace = ownerMeta.getNamespace();
    if (ownerNamespace == null || ownerNamespace.isEmpty()) {
      return; // cluster-scoped owners may own anything
    }
    if (isClusterScoped(dependent)) {
      throw new OwnershipException(
          "cluster-scoped "
              + describe(dependent)
              + " cannot have namespaced owner "
              + owner.getKind()
              + " "
              + ownerNamespace
              + "/"
              + ownerMeta.getName());
    }
    String dependentNamespace = dependent.getMetadata().getNamespace();
    if (dependentNamespace != null
        && !dependentNamespace.isEmpty()
        && !dependentNamespace.equals(ownerNamespace)) {
      throw new OwnershipException(
          "cross-namespace owner references are not allowed: "
              + describe(dependent)
              + " is in namespace '"
              + dependentNamespace
              + "' but owner "
              + owner.getKind()
              + " "
              + ownerMeta.getName()
              + " is in '"
              + ownerNamespace
              + "'");
    }
  }

  /**
   * Typed objects know their scope from {@link Namespaced}; a generic object is taken as
   * cluster-scoped only if it has no namespace.
   */
  private static boolean isClusterScoped(HasMetadata object) {
    if (object instanceof GenericKubernetesResource) {
      String namespace = object.getMetadata().getNamespace();
      return namespace == null || namespace.isEmpty();
    }
    return !(object instanceof Namespaced);
  }

  private static boolean refersTo(OwnerReference reference, HasMetadata owner) {
    return Objects.equals(groupOf(reference.getApiVersion()), groupOf(owner.getApiVersion()))
        && Objects.equals(reference.getKind(), owner.getKind())
        && Objects.equals(reference.getName(), owner.getMetadata().getName());
  }

  private static boolean sameOwner(OwnerReference a, OwnerReference b) {
    return Objects.equals(groupOf(a.getApiVersion()), groupOf(b.getApiVersion()))
        && Objects.equals(a.getKind(), b.getKind())
        && Objects.equals(a.getName(), b.getName());
  }

  private static List<OwnerReference> references(HasMetadata object) {
    ObjectMeta meta = object.getMetadata();
    return meta == null || meta.getOwnerReferences() == null
        ? List.of()
        : meta.getOwnerReferences();
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must be set, got '" + value + "'");
    }
  }

  private static String describe(HasMetadata object) {
    ObjectMeta meta = object.getMetadata();
    String name = meta.getName() != null ? meta.getName() : meta.getGenerateName() + "*";
    return object.getKind() + " " + name;
  }
}
