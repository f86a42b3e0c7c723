package io.podset.runtime.handler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.podset.runtime.event.Event;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Request;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/** Stock event handlers. */
public final class EventHandlers {

  private EventHandlers() {}

  /** Enqueues the object itself: the handler of a controller's primary resource. */
  public static <T extends HasMetadata> EventHandler<T> forObject() {
    return event -> List.of(Request.of(event.object()));
  }

  /**
   * Enqueues the controller owner of the object when it is of the given API group and kind (the
   * version is ignored). On an update that changed the owner, both the old and the new owner are
   * enqueued, so the old one notices it lost the object.
   *
   * @param group the owner's API group, {@code ""} for the core group
   * @param kind the owner's kind
   * @param namespacedOwner whether the owner kind is namespaced (its request then takes the
   *     dependent's namespace) or cluster-scoped
   */
  public static <T extends HasMetadata> EventHandler<T> forControllerOwner(
      String group, String kind, boolean namespacedOwner) {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    return event -> {
      List<Request> requests = new ArrayList<>(2);
      if (event instanceof Event.Updated<T> update) {
        ownerRequest(update.oldObject(), group, kind, namespacedOwner).ifPresent(requests::add);
      }
      ownerRequest(event.object(), group, kind, namespacedOwner)
          .filter(r -> !requests.contains(r))
          .ifPresent(requests::add);
      return requests;
    };
  }

  /**
   * Enqueues the controller owner of the object when it is of {@code ownerType}; group, kind and
   * scope are read from the type's annotations and whether it implements {@code Namespaced}.
   */
  public static <T extends HasMetadata> EventHandler<T> forControllerOwner(
      Class<? extends HasMetadata> ownerType) {
    Objects.requireNonNull(ownerType, "ownerType");
    return forControllerOwner(
        HasMetadata.getGroup(ownerType),
        HasMetadata.getKind(ownerType),
        Namespaced.class.isAssignableFrom(ownerType));
  }

  /**
   * Enqueues whatever {@code mapper} returns for the object (for an update, for the new state and
   * the old one).
   */
  public static <T extends HasMetadata> EventHandler<T> fromMapper(
      Function<? super T, ? extends Collection<Request>> mapper) {
    Objects.requireNonNull(mapper, "mapper");
    return event -> {
      List<Request> requests = new ArrayList<>(mapper.apply(event.object()));
      if (event instanceof Event.Updated<T> update) {
        for (Request r : mapper.apply(update.oldObject())) {
          if (!requests.contains(r)) {
            requests.add(r);
          }
        }
      }
      return requests;
    };
  }

  private static Optional<Request> ownerRequest(
      HasMetadata object, String group, String kind, boolean namespacedOwner) {
    Optional<OwnerReference> owner = OwnerReferences.getControllerOf(object);
    if (owner.isEmpty()) {
      return Optional.empty();
    }
    OwnerReference ref = owner.get();
    if (!kind.equals(ref.getKind())
        || !group.equals(OwnerReferences.groupOf(ref.getApiVersion()))
        || ref.getName() == null) {
      return Optional.empty();
    }
    // A namespaced owner lives in its dependent's namespace (cross-namespace references are
    // invalid).
    String namespace = namespacedOwner ? object.getMetadata().getNamespace() : null;
    return Optional.of(new Request(namespace, ref.getName()));
  }
}
