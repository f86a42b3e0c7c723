package io.podset.operator.cli;

import io.podset.operator.PodSetController;
import io.podset.operator.PodSetOptions;
import io.podset.runtime.informer.InformerOptions;
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
          () ->
              PodSetController.create(
                  manager.controllerBuilder(),
                  manager.client(),
                  manager.informers(),
                  manager.eventRecorder(),
                  PodSetOptions.defaults().withWorkers(workers),
                  options));
    }
  }
}
