package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The CEL rules of a CRD are compiled once per definition and replaced when it changes: writers
 * racing the changes see the old rules or the new ones (never no type, never a failure of the
 * server), and a write after the CRD update returned sees the new rules.
 */
class CelRulesConcurrencyTest {

  private static final ResourceDefinitionContext LIMITS =
      new ResourceDefinitionContext.Builder()
          .withGroup("cel.podset.io")
          .withVersion("v1")
          .withKind("Limit")
          .withPlural("limits")
          .withNamespaced(true)
          .build();

  private static CustomResourceDefinition crd(KubernetesClient client, int max) {
    String yaml =
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: limits.cel.podset.io
        spec:
          group: cel.podset.io
          scope: Namespaced
          names: {plural: limits, kind: Limit}
          versions:
            - name: v1
              served: true
              storage: true
              schema:
                openAPIV3Schema:
                  type: object
                  properties:
                    spec:
                      type: object
                      properties:
                        v: {type: integer}
                      x-kubernetes-validations:
                        - rule: "self.v <= MAX"
                          message: "v at most MAX"
        """
            .replace("MAX", Integer.toString(max));
    return client.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
  }

  private static GenericKubernetesResource limit(String name, int v) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("cel.podset.io/v1");
    r.setKind("Limit");
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
    r.setAdditionalProperty("spec", Map.of("v", v));
    return r;
  }

  /** What a write of v=15 answered: "ok", or the code and message of a refusal. */
  private static String outcome(Runnable write) {
    try {
      write.run();
      return "ok";
    } catch (KubernetesClientException e) {
      return e.getCode() + " " + e.getStatus().getMessage();
    }
  }

  @Test
  void writersRacingRuleChanges_seeTheOldOrTheNewRules() throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        KubernetesClient client = server.newClient()) {
      var crds = client.apiextensions().v1().customResourceDefinitions();
      crds.resource(crd(client, 10)).create();
      var limits = client.genericKubernetesResources(LIMITS).inNamespace("default");
      limits.resource(limit("shared", 5)).create();
      String refused10 =
          "422 Limit.cel.podset.io \"%s\" is invalid: spec: Invalid value: \"object\": v at most 10";
      Set<String> outcomes = ConcurrentHashMap.newKeySet();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 0; !stop.get(); i++) {
                    String name = "w" + thread + "-" + i;
                    String created = outcome(() -> limits.resource(limit(name, 15)).create());
                    outcomes.add(created.replace(name, "%s"));
                    String updated =
                        outcome(() -> limits.withName("shared").edit(r -> limit("shared", 15)));
                    outcomes.add(updated.replace("shared", "%s"));
                    outcome(() -> limits.withName("shared").edit(r -> limit("shared", 5)));
                  }
                }));
      }
      for (int round = 0; round < 20; round++) {
        int max = round % 2 == 0 ? 20 : 10;
        crds.withName("limits.cel.podset.io").edit(c -> crd(client, max));
        // A write after the update returned is judged by the new rule.
        String probe = "probe-" + round;
        String answer = outcome(() -> limits.resource(limit(probe, 15)).create());
        assertThat(answer.replace(probe, "%s"))
            .as("round %d, rule v <= %d", round, max)
            .isEqualTo(max == 20 ? "ok" : refused10);
      }
      stop.set(true);
      for (Future<?> w : writers) {
        w.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();

      assertThat(outcomes).isSubsetOf("ok", refused10);
    }
  }
}
