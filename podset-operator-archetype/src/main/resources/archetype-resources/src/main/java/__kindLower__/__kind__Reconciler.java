package ${package}.${kindLower};

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.reconcile.Result;

/**
 * Drives each {@link ${kind}} to what its spec asks: a ConfigMap of the same name holding {@code
 * spec.message}, owned by the ${kind} (so the garbage collector deletes it with the ${kind}), and a
 * {@code Ready} condition.
 *
 * <p>The reconcile reads the ${kind} from the cache and writes through the {@link Context}: {@code
 * apply} sends nothing while the ConfigMap already holds what it applies, and corrects any drift;
 * {@code updateStatus} writes only when the status changes. Each permission it uses is granted in
 * {@code deploy/rbac/cluster-role.yaml}: add the rules for any type you add here.
 */
public final class ${kind}Reconciler {

  /** Registers the controller with {@code manager}; it runs once the manager starts (and leads). */
  public void register(Manager manager) {
    manager.controllerFor(${kind}.class).owns(ConfigMap.class).reconcile(this::reconcile);
  }

  Result reconcile(${kind} ${kindLower}, Context<${kind}> context) {
    String name = ${kindLower}.getMetadata().getName();
    context.apply(configMap(name, ${kindLower}.getSpec().message()));
    context.updateStatus(
        r ->
            r.getStatus()
                .setCondition(context.condition("Ready", true, "Published", "in the ConfigMap")));
    return Result.done();
  }

  static ConfigMap configMap(String name, String message) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("message", message)
        .build();
  }
}
