package io.podset.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.ControllerBuilder;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.Projections;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.predicate.Predicates;
import io.podset.runtime.recorder.EventRecorder;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Wires the PodSet controller: informers for PodSets and Pods from the shared factory, a {@link
 * PodSetReconciler}, and a runtime {@link Controller} named {@value #NAME} reconciling PodSets and
 * watching their pods through {@link PodSetReconciler#podEventHandler()}.
 *
 * <pre>{@code
 * Controller controller =
 *     PodSetController.create(client, informers, events, PodSetOptions.defaults());
 * controller.start();
 * }</pre>
 *
 * <p>Pods are cached as the operator reads them: only {@link #POD_FIELDS} (and the identity and
 * versions every projection keeps), whatever transform {@code informerOptions} give, which applies
 * to PodSets. An informer factory shares one pod informer per namespace and selectors: another
 * controller reading pods from the same factory and selectors gets these slim pods too (or, if it
 * created the pod informer first, the operator gets its transform, which must keep these fields).
 *
 * <p>PodSet events are filtered: an update reconciles only when the spec changed ({@code
 * metadata.generation}), the PodSet started terminating, or on a resync. Status writes, ours
 * included, do not trigger a reconcile, so a PodSet whose pod creations fail is retried at the
 * controller's backoff rate and not at once after each status write.
 */
public final class PodSetController {

  /**
   * The controller's name in logs and metrics, for all namespaces; a controller for one namespace
   * is named {@code podset-<namespace>} (names are unique per informer factory).
   */
  public static final String NAME = "podset";

  /**
   * The pod fields the operator reads ({@link PodSetReconciler} and what it plans, ranks, patches
   * and reports with), besides {@link Projections#ALWAYS_KEPT}: its pod informer caches only these,
   * about a tenth of a whole pod. A field read from a cached pod must be listed here; the
   * reconciler's tests run on caches holding this projection, so a read of a dropped field fails
   * them.
   */
  static final List<String> POD_FIELDS =
      List.of(
          "metadata.creationTimestamp",
          "metadata.labels[" + PodSetLabels.PODSET + "]",
          "metadata.labels[" + PodSetLabels.TEMPLATE_HASH + "]",
          "metadata.annotations[" + PodSetLabels.TEMPLATE_HASH_WITHOUT_IMAGES + "]",
          "metadata.ownerReferences",
          "spec.nodeName",
          "spec.containers.name",
          "spec.containers.image",
          "status.phase",
          "status.conditions[type=Ready].status",
          "status.conditions[type=Ready].lastTransitionTime",
          "status.containerStatuses.name",
          "status.containerStatuses.image",
          "status.containerStatuses.restartCount");

  static final UnaryOperator<HasMetadata> POD_PROJECTION = Projections.keep(Pod.class, POD_FIELDS);

  /**
   * The transform of the operator's pod informer: a {@link Projections#keep} of the pod fields the
   * operator reads. Give it to a pod informer you create for the operator's factory yourself.
   */
  public static UnaryOperator<HasMetadata> podTransform() {
    return POD_PROJECTION;
  }

  private PodSetController() {}

  /**
   * A controller for PodSets in all namespaces; not started.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Controller create(
      KubernetesClient client,
      SharedInformerFactory informers,
      EventRecorder events,
      PodSetOptions options) {
    return create(client, informers, events, options, InformerOptions.defaults());
  }

  /**
   * A controller for the PodSets (and pods) that {@code informerOptions} select, for instance one
   * namespace; not started.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the namespace makes the name {@code podset-<namespace>}
   *     longer than 63 characters
   * @throws IllegalStateException if the informer factory already has a controller of that name
   */
  public static Controller create(
      KubernetesClient client,
      SharedInformerFactory informers,
      EventRecorder events,
      PodSetOptions options,
      InformerOptions informerOptions) {
    Objects.requireNonNull(informers, "informers");
    Objects.requireNonNull(options, "options");
    return create(
        Controllers.builder(informers).clock(options.clock()),
        client,
        informers,
        events,
        options,
        informerOptions);
  }

  /**
   * A controller built with {@code builder}, for instance a manager's {@code controllerBuilder()}
   * (which sets its metrics registry and clock); not started. {@code informers} must be the factory
   * {@code builder} takes its informers from.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the namespace makes the name {@code podset-<namespace>}
   *     longer than 63 characters
   * @throws IllegalStateException if the informer factory already has a controller of that name
   */
  public static Controller create(
      ControllerBuilder builder,
      KubernetesClient client,
      SharedInformerFactory informers,
      EventRecorder events,
      PodSetOptions options,
      InformerOptions informerOptions) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(informers, "informers");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(informerOptions, "informerOptions");
    SharedInformer<PodSet> podSets = informers.informerFor(PodSet.class, informerOptions);
    SharedInformer<Pod> pods =
        informers.informerFor(Pod.class, informerOptions.withTransform(POD_PROJECTION));
    PodSetReconciler reconciler = PodSetReconciler.create(client, podSets, pods, events, options);
    return builder
        .named(
            informerOptions.namespace() == null ? NAME : NAME + "-" + informerOptions.namespace())
        .informerOptions(informerOptions)
        .forResource(PodSet.class, specChanged())
        .watches(pods, reconciler.podEventHandler(), event -> true)
        .workers(options.workers())
        .reconciler(reconciler)
        .closing(reconciler)
        .build();
  }

  /**
   * Passes additions, deletions, resyncs (same resourceVersion), and updates that changed the
   * generation or the deletionTimestamp, or replaced the PodSet by a new one of the same name
   * (another uid: deleted and created again while the watch was down, seen in a relist).
   */
  static Predicate<Event<PodSet>> specChanged() {
    return event -> {
      if (!(event instanceof Event.Updated<PodSet> update)) {
        return true;
      }
      HasMetadata before = update.oldObject();
      HasMetadata after = update.object();
      return Predicates.replaced(before, after)
          || Objects.equals(
              before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion())
          || !Objects.equals(
              before.getMetadata().getGeneration(), after.getMetadata().getGeneration())
          || !Objects.equals(
              before.getMetadata().getDeletionTimestamp(),
              after.getMetadata().getDeletionTimestamp());
    };
  }
}
