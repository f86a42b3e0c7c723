package io.podset.runtime.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.status.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Context} of one typed reconcile: cache reads as copies, tracked writes, and creates of
 * owned objects only for a primary the server still has ({@link PrimaryConfirmation}).
 */
final class ReconcileContext<P extends HasMetadata> implements Context<P> {

  private final ControllerResources<P> resources;
  private final PrimaryWrites<P> primaryWrites;
  private final List<ReadYourWrites.Write> writes = new ArrayList<>();
  // Null where creates are not confirmed: a cleanup runs for a primary known to be terminating.
  private final @Nullable PrimaryConfirmation<P> confirmation;
  private P primary;

  ReconcileContext(
      ControllerResources<P> resources, P cached, @Nullable PrimaryConfirmation<P> confirmation) {
    this.resources = resources;
    this.primary = copy(cached);
    this.primaryWrites = new PrimaryWrites<>(resources);
    this.confirmation = confirmation;
  }

  /** True once a create or apply found the primary gone from the server (and sent nothing). */
  boolean primaryGone() {
    return confirmation != null && confirmation.gone();
  }

  /** The writes made so far, for the barrier of the next reconcile. */
  List<ReadYourWrites.Write> writes() {
    return writes;
  }

  @Override
  public P primary() {
    return copy(primary);
  }

  /** The primary without a copy, for the controller's own checks. */
  P current() {
    return primary;
  }

  @Override
  public <S extends HasMetadata> Optional<S> get(Class<S> type, String name) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    SharedInformer<S> informer = resources.informer(type, "get(" + type.getSimpleName() + ")");
    String key =
        Namespaced.class.isAssignableFrom(type)
            ? primary.getMetadata().getNamespace() + "/" + name
            : name;
    return informer.indexer().getByKey(key).map(this::copy);
  }

  @Override
  public <S extends HasMetadata> List<S> owned(Class<S> type) {
    Objects.requireNonNull(type, "type");
    SharedInformer<S> informer =
        resources.ownedInformer(type, "owned(" + type.getSimpleName() + ")");
    List<S> owned = new ArrayList<>();
    for (S object :
        informer.indexer().byIndex(Indexers.CONTROLLER_UID, primary.getMetadata().getUid())) {
      owned.add(copy(object));
    }
    return owned;
  }

  @Override
  public <S extends HasMetadata> S apply(S desired) {
    Objects.requireNonNull(desired, "desired");
    @SuppressWarnings("unchecked")
    Class<S> type = (Class<S>) desired.getClass();
    SharedInformer<S> informer = resources.ownedInformer(type, "apply");
    S object = ownedCopy(desired, "apply");
    ObjectNode tree = resources.serialization().convertValue(object, ObjectNode.class);
    String stamp = AppliedObjects.stamp(tree);
    ObjectMeta meta = object.getMetadata();
    Map<String, String> annotations =
        meta.getAnnotations() == null ? new HashMap<>() : new HashMap<>(meta.getAnnotations());
    annotations.put(AppliedObjects.ANNOTATION, stamp);
    meta.setAnnotations(annotations);
    ((ObjectNode) tree.get("metadata"))
        .putObject("annotations")
        .setAll(resources.serialization().convertValue(annotations, ObjectNode.class));
    Optional<S> cached = informer.indexer().getByKey(key(object));
    if (cached.isPresent()) {
      requireNotControlledByAnother(cached.get());
      ObjectNode actual = resources.serialization().convertValue(cached.get(), ObjectNode.class);
      if (AppliedObjects.holds(actual, tree)) {
        return copy(cached.get());
      }
    } else {
      beforeCreate(); // not in the cache: the apply would create it
    }
    S applied =
        resources
            .client()
            .resource(object)
            .fieldManager(resources.fieldManager())
            .forceConflicts()
            .serverSideApply();
    observe(informer, applied.getMetadata().getResourceVersion());
    return applied;
  }

  @Override
  public WrittenObject create(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    HasMetadata created = ownedCopy(object, "create");
    beforeCreate();
    WrittenObject written = resources.writer().create(created);
    observeIfWatched(created.getClass(), written.resourceVersion());
    return written;
  }

  @Override
  public boolean delete(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    ObjectMeta meta = Objects.requireNonNull(object.getMetadata(), "object.metadata");
    Objects.requireNonNull(meta.getName(), "object.metadata.name");
    Class<? extends HasMetadata> type = object.getClass();
    String namespace =
        Namespaced.class.isAssignableFrom(type)
            ? Objects.requireNonNullElse(meta.getNamespace(), primary.getMetadata().getNamespace())
            : null;
    Optional<WrittenObject> deleted =
        resources.writer().delete(type, namespace, meta.getName(), meta.getUid());
    deleted.ifPresent(written -> observeIfWatched(type, written.resourceVersion()));
    return deleted.isPresent();
  }

  @Override
  public P updateStatus(Consumer<? super P> change) {
    Objects.requireNonNull(change, "change");
    P next = copy(primary);
    PrimaryWrites.initStatus(next);
    change.accept(next);
    primaryWrites
        .writeStatus(primary, next)
        .ifPresent(
            rv -> {
              next.getMetadata().setResourceVersion(rv);
              primary = next;
              observe(resources.primaries(), rv);
            });
    return copy(primary);
  }

  @Override
  public Condition condition(String type, boolean status, String reason, String message) {
    return Conditions.of(
        type,
        status,
        reason,
        message,
        primary.getMetadata().getGeneration(),
        resources.clock().instant());
  }

  @Override
  public EventRecorder events() {
    return resources.events();
  }

  @Override
  public KubernetesClient client() {
    return resources.client();
  }

  /**
   * Adds the finalizer to the primary before anything else is written.
   *
   * @return false when the primary is gone
   */
  boolean addFinalizer(String finalizer) {
    P written = primaryWrites.addFinalizer(primary, finalizer);
    if (written == null) {
      return false;
    }
    if (written != primary) {
      primary = written;
      observe(resources.primaries(), primary.getMetadata().getResourceVersion());
    }
    return true;
  }

  /** Removes the finalizer after the cleanup; the primary may be gone afterwards. */
  void removeFinalizer(String finalizer) {
    P written = primaryWrites.removeFinalizer(primary, finalizer);
    if (written != null) {
      observe(resources.primaries(), written.getMetadata().getResourceVersion());
    }
  }

  private void beforeCreate() {
    if (confirmation != null) {
      confirmation.beforeCreate();
    }
  }

  private <S extends HasMetadata> S ownedCopy(S object, String use) {
    S copy = copy(object);
    ObjectMeta meta = copy.getMetadata();
    if (meta == null) {
      throw new IllegalArgumentException(use + " needs an object with metadata");
    }
    if ((meta.getName() == null || meta.getName().isEmpty())
        && (meta.getGenerateName() == null || !"create".equals(use))) {
      throw new IllegalArgumentException(
          use
              + " needs metadata.name"
              + ("create".equals(use) ? " or generateName" : "")
              + ", got a "
              + copy.getKind()
              + " without");
    }
    if (Namespaced.class.isAssignableFrom(copy.getClass()) && meta.getNamespace() == null) {
      if (primary.getMetadata().getNamespace() == null) {
        throw new IllegalArgumentException(
            use
                + " of a namespaced "
                + copy.getKind()
                + " needs metadata.namespace: the primary, "
                + primary.getKind()
                + " "
                + primary.getMetadata().getName()
                + ", is cluster-scoped");
      }
      meta.setNamespace(primary.getMetadata().getNamespace());
    }
    meta.setResourceVersion(null);
    meta.setUid(null);
    meta.setManagedFields(null);
    meta.setCreationTimestamp(null);
    OwnerReferences.setControllerReference(primary, copy);
    return copy;
  }

  /** Throws the ownership error when another object controls {@code cached}. */
  private void requireNotControlledByAnother(HasMetadata cached) {
    Optional<OwnerReference> controller = OwnerReferences.getControllerOf(cached);
    if (controller.isPresent()
        && !controller.get().getUid().equals(primary.getMetadata().getUid())) {
      OwnerReferences.setControllerReference(primary, copy(cached)); // throws, naming both
    }
  }

  private void observeIfWatched(Class<?> type, String resourceVersion) {
    SharedInformer<?> informer =
        type == resources.primaryType() ? resources.primaries() : resources.watched().get(type);
    if (informer != null) {
      observe(informer, resourceVersion);
    }
  }

  private void observe(SharedInformer<?> informer, String resourceVersion) {
    if (resourceVersion != null) {
      writes.add(new ReadYourWrites.Write(informer, resourceVersion));
    }
  }

  private static String key(HasMetadata object) {
    ObjectMeta meta = object.getMetadata();
    return meta.getNamespace() == null
        ? meta.getName()
        : meta.getNamespace() + "/" + meta.getName();
  }

  private <T> T copy(T object) {
    return resources.serialization().clone(object);
  }
}
