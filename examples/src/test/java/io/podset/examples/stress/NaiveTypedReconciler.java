package io.podset.examples.stress;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.examples.website.Website;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.reconcile.Result;

/** {@link NaiveLogic} on the typed API: the obvious code, with no precautions of its own. */
final class NaiveTypedReconciler {

  static void register(Manager manager) {
    manager
        .controllerFor(Website.class)
        .named("naive")
        .owns(ConfigMap.class)
        .owns(Pod.class)
        .finalizer(NaiveLogic.FINALIZER)
        .cleanup((site, context) -> Result.done())
        .workers(4)
        .reconcile(NaiveTypedReconciler::reconcile);
  }

  static Result reconcile(Website site, Context<Website> context) {
    context.apply(NaiveLogic.page(site));
    if (context.owned(Pod.class).isEmpty()) {
      context.create(NaiveLogic.server(site));
    }
    String html = site.getSpec().html();
    context.updateStatus(
        s -> s.getStatus().setCondition(context.condition("Ready", true, "Serving", html)));
    return Result.done();
  }
}
