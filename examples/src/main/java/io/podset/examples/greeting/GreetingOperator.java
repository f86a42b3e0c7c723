package io.podset.examples.greeting;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.status.HasConditions;
import java.util.List;

/** The README's operator: a Greeting publishes its message in a ConfigMap it owns. */
public final class GreetingOperator {

  private GreetingOperator() {}

  // tag::operator[]
  @Group("example.com")
  @Version("v1")
  public static class Greeting extends CustomResource<GreetingSpec, GreetingStatus>
      implements Namespaced {}

  public record GreetingSpec(String message) {}

  public static class GreetingStatus implements HasConditions {
    private List<Condition> conditions;

    public List<Condition> getConditions() {
      return conditions;
    }

    public void setConditions(List<Condition> conditions) {
      this.conditions = conditions;
    }
  }

  public static void register(Manager manager) {
    manager
        .controllerFor(Greeting.class)
        .owns(ConfigMap.class)
        .reconcile(GreetingOperator::reconcile);
  }

  static Result reconcile(Greeting greeting, Context<Greeting> context) {
    context.apply(
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(greeting.getMetadata().getName())
            .endMetadata()
            .addToData("message", greeting.getSpec().message())
            .build());
    context.updateStatus(
        g ->
            g.getStatus()
                .setCondition(context.condition("Ready", true, "Published", "in the ConfigMap")));
    return Result.done();
  }

  public static void main(String[] args) {
    Manager manager = Manager.builder().build(); // kubeconfig or in-cluster; /healthz, /metrics
    register(manager);
    manager.start();
    manager.terminated().join();
  }
  // end::operator[]
}
