package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.operator.PodSetPlan;
import io.podset.operator.PodSetPlanner;
import io.podset.operator.PodSetStatuses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The PodSet reconcile on java-operator-sdk, the peer of benchmark 3: pods come from an {@link
 * InformerEventSource} mapped to their controller owner, {@link PodSetPlanner} (our pure planning
 * logic) decides, the reconcile creates and deletes the planned pods, and the status computed by
 * {@link PodSetStatuses} is patched through JOSDK's {@link UpdateControl#patchStatus} when {@link
 * PodSetStatuses#writeNow} says so (as ours: a pass that wrote pods leaves it to the next pass).
 *
 * <p>Stale cache: JOSDK's own mechanism, each created pod handed to the event source's temporary
 * cache ({@link InformerEventSource#handleRecentResourceCreate}), so the next reconcile sees it.
 * Adoption, release and image patches are not carried out: no pod of this benchmark needs them.
 */
@ControllerConfiguration(name = "podset-josdk")
final class JosdkPodSetReconciler implements Reconciler<PodSet> {

  private final PodSetPlanner planner = PodSetPlanner.create();
  private volatile InformerEventSource<Pod, PodSet> podSource;

  @Override
  public List<EventSource<?, PodSet>> prepareEventSources(EventSourceContext<PodSet> context) {
    InformerEventSource<Pod, PodSet> source =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Pod.class, PodSet.class)
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(PodSet.class, false))
                .build(),
            context);
    podSource = source;
    return List.of(source);
  }

  @Override
  public UpdateControl<PodSet> reconcile(PodSet podSet, Context<PodSet> context) {
    List<Pod> pods = new ArrayList<>(context.getSecondaryResources(Pod.class));
    PodSetPlan plan = planner.plan(podSet, pods, true);
    KubernetesClient client = context.getClient();
    String namespace = podSet.getMetadata().getNamespace();
    List<Pod> deletions = new ArrayList<>(plan.delete());
    deletions.addAll(plan.replace());
    for (Pod pod : deletions) {
      client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete();
    }
    for (int i = 0; i < plan.create(); i++) {
      Pod created = client.pods().inNamespace(namespace).resource(plan.podToCreate()).create();
      podSource.handleRecentResourceCreate(ResourceID.fromResource(created), created);
    }
    PodSetStatus current = podSet.getStatus() == null ? PodSetStatus.empty() : podSet.getStatus();
    PodSetStatus status = PodSetStatuses.compute(podSet, current, plan, null, Instant.now());
    if (!PodSetStatuses.writeNow(plan, null, current, status)) {
      return UpdateControl.noUpdate();
    }
    PodSet patch = new PodSet();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(podSet.getMetadata().getName())
            .withNamespace(namespace)
            .build());
    patch.setStatus(status);
    return UpdateControl.patchStatus(patch);
  }
}
