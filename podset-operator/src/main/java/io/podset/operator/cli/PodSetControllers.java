package io.podset.operator.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.operator.PodSetOptions;
import io.podset.operator.PodSetReconciler;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.manager.Manager;
import java.util.ArrayList;
import java.util.List;

/** Registers the PodSet controller with a manager: one per watched namespace, or one for all. */
final class PodSetControllers {

  private PodSetControllers() {}

  /**
   * @param namespaces the namespaces to watch; empty for all
   */
  static void register(Manager manager, List<String> namespaces, int workers) {
    List<String> scopes = new ArrayList<>(namespaces);
    if (scopes.isEmpty()) {
      scopes.add(null);
    }
    for (String namespace : scopes) {
      // All pods of the namespace, not only labelled ones: a pod whose label was removed must
      // still be seen, to release it.
      InformerOptions options = InformerOptions.defaults().withNamespace(namespace);
      manager.addController(
          () -> {
            SharedInformer<PodSet> podSets = manager.informers().informerFor(PodSet.class, options);
            SharedInformer<Pod> pods = manager.informers().informerFor(Pod.class, options);
            PodSetReconciler reconciler =
                PodSetReconciler.create(
                    manager.client(),
                    podSets,
                    pods,
                    manager.eventRecorder(),
                    PodSetOptions.defaults().withWorkers(workers));
            return manager
                .controllerBuilder()
                .named(namespace == null ? "podset" : "podset-" + namespace)
                .informerOptions(options)
                .forResource(PodSet.class)
                .watches(pods, reconciler.podEventHandler(), event -> true)
                .workers(workers)
                .reconciler(reconciler)
                .build();
          });
    }
  }
}
