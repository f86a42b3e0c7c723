package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;

/** Installs CRDs and waits until the API server serves them. */
final class CrdInstaller {

  private CrdInstaller() {}

  /**
   * Applies the CRDs (server-side, forcing conflicts) and waits until each is established and every
   * served version answers a list.
   *
   * @return the definitions as applied
   * @throws ControlPlaneException if one is not served before the deadline
   */
  static List<CustomResourceDefinition> install(
      KubernetesClient admin, List<CustomResourceDefinition> crds, long deadlineNanos) {
    List<CustomResourceDefinition> applied = new ArrayList<>();
    for (CustomResourceDefinition crd : crds) {
      applied.add(
          admin
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .resource(crd)
              .forceConflicts()
              .serverSideApply());
    }
    for (CustomResourceDefinition crd : crds) {
      awaitServed(admin, crd, deadlineNanos);
    }
    return applied;
  }

  private static void awaitServed(
      KubernetesClient admin, CustomResourceDefinition crd, long deadlineNanos) {
    String name = crd.getMetadata().getName();
    Readiness.await(
        "CRD " + name + " established",
        deadlineNanos,
        List.of(),
        () -> {
          CustomResourceDefinition current =
              admin.apiextensions().v1().customResourceDefinitions().withName(name).get();
          return current != null
              && current.getStatus() != null
              && current.getStatus().getConditions() != null
              && current.getStatus().getConditions().stream()
                  .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
        });
    for (CustomResourceDefinitionVersion served :
        crd.getSpec().getVersions().stream()
            .filter(v -> Boolean.TRUE.equals(v.getServed()))
            .toList()) {
      ResourceDefinitionContext context =
          new ResourceDefinitionContext.Builder()
              .withGroup(crd.getSpec().getGroup())
              .withVersion(served.getName())
              .withPlural(crd.getSpec().getNames().getPlural())
              .withKind(crd.getSpec().getNames().getKind())
              .withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
              .build();
      Readiness.await(
          "CRD " + name + " served at version " + served.getName(),
          deadlineNanos,
          List.of(),
          () -> {
            try {
              var resources = admin.genericKubernetesResources(context);
              var limitOne = new ListOptionsBuilder().withLimit(1L).build();
              if (Boolean.TRUE.equals(context.isNamespaceScoped())) {
                resources.inAnyNamespace().list(limitOne);
              } else {
                resources.list(limitOne);
              }
              return true;
            } catch (KubernetesClientException e) {
              if (e.getCode() == 404 || e.getCode() == 503) {
                return false;
              }
              throw e;
            }
          });
    }
  }
}
