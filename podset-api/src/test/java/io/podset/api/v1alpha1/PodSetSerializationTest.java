package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PodSets through fabric8's own Jackson configuration, as the client reads and writes them. */
class PodSetSerializationTest {

  private static final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void seedExample_readsAsWritten() {
    String seed = TestFiles.read(TestFiles.path("podset.example"));

    PodSet podSet = serialization.unmarshal(seed, PodSet.class);

    assertThat(podSet.getApiVersion()).isEqualTo("app.example.com/v1alpha1");
    assertThat(podSet.getKind()).isEqualTo("PodSet");
    assertThat(podSet.getMetadata().getName()).isEqualTo("example-podset");
    assertThat(podSet.getSpec()).isEqualTo(new PodSetSpec(3, null, null));
    assertThat(podSet.getSpec().effectiveReplicas()).isEqualTo(3);
    assertThat(podSet.getSpec().effectiveTemplate()).isEqualTo(PodSetDefaults.template());
    assertThat(podSet.getSpec().effectiveMaxUnavailable()).isEqualTo(1);
    assertThat(podSet.getStatus()).isNull();
  }

  @Test
  void seedExample_resolvesToPodSetByApiVersionAndKind() {
    serialization.registerKubernetesResource(PodSet.class);
    String seed = TestFiles.read(TestFiles.path("podset.example"));

    HasMetadata resource = serialization.unmarshal(seed);

    assertThat(resource).isInstanceOf(PodSet.class);
  }

  @Test
  void seedExample_roundTripsThroughYamlAndJson() {
    PodSet original =
        serialization.unmarshal(TestFiles.read(TestFiles.path("podset.example")), PodSet.class);

    String yaml = serialization.asYaml(original);
    String json = serialization.asJson(original);

    assertThat(yaml).contains("replicas: 3").doesNotContain("template").doesNotContain("status");
    assertThat(json)
        .isEqualTo(
            "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":\"PodSet\","
                + "\"metadata\":{\"name\":\"example-podset\"},\"spec\":{\"replicas\":3}}");
    assertThat(serialization.unmarshal(yaml, PodSet.class)).isEqualTo(original);
    assertThat(serialization.unmarshal(json, PodSet.class)).isEqualTo(original);
  }

  @Test
  void newPodSet_hasApiVersionKindAndEmptySpec() {
    PodSet podSet = new PodSet();

    assertThat(podSet.getApiVersion()).isEqualTo(PodSet.API_VERSION);
    assertThat(podSet.getKind()).isEqualTo(PodSet.KIND);
    assertThat(podSet.getSpec()).isEqualTo(PodSetSpec.defaults());
    assertThat(podSet.getStatus()).isNull();
  }

  @Test
  void missingSpec_readsAsAllDefaults() {
    PodSet podSet =
        serialization.unmarshal(
            "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":\"PodSet\","
                + "\"metadata\":{\"name\":\"p\"}}",
            PodSet.class);

    assertThat(podSet.getSpec().effectiveReplicas()).isEqualTo(1);
  }

  @Test
  void fullPodSet_roundTrips() {
    PodSet original =
        serialization.unmarshal(
            """
            apiVersion: app.example.com/v1alpha1
            kind: PodSet
            metadata: {name: web, namespace: prod, generation: 4}
            spec:
              replicas: 2
              updateStrategy: {maxUnavailable: 2}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                  - name: web
                    image: nginx:1.27
                    ports: [{containerPort: 80}]
            status:
              replicas: 2
              readyReplicas: 1
              availableReplicas: 1
              updatedReplicas: 2
              podNames: [web-b, web-a]
              observedGeneration: 4
              selector: app.example.com/podset=web
              conditions:
              - type: Available
                status: "False"
                reason: MinimumReplicasUnavailable
                message: 1 of 2 pods available
                lastTransitionTime: "2024-05-01T12:00:00Z"
            """,
            PodSet.class);

    PodSet copy = serialization.unmarshal(serialization.asYaml(original), PodSet.class);

    assertThat(copy).isEqualTo(original);
    assertThat(copy.getSpec().template().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.27");
    assertThat(copy.getSpec().effectiveMaxUnavailable()).isEqualTo(2);
    assertThat(copy.getStatus().podNames()).containsExactly("web-a", "web-b");
    assertThat(copy.getStatus().condition(PodSetCondition.AVAILABLE))
        .hasValue(
            new PodSetCondition(
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "1 of 2 pods available",
                "2024-05-01T12:00:00Z"));
  }

  @Test
  void status_writtenWithoutEmptyListsOrNulls_andReadBackEqual() {
    PodSetStatus status = PodSetStatus.builder().replicas(0).observedGeneration(1).build();

    String json = serialization.asJson(status);

    assertThat(json)
        .isEqualTo(
            "{\"replicas\":0,\"readyReplicas\":0,\"availableReplicas\":0,"
                + "\"updatedReplicas\":0,\"observedGeneration\":1}");
    assertThat(serialization.unmarshal(json, PodSetStatus.class)).isEqualTo(status);
  }

  @Test
  void status_fromServerOmittingZeroCountsAndLists_equalsComputedStatus() {
    PodSetStatus stored = serialization.unmarshal("{\"observedGeneration\":2}", PodSetStatus.class);

    PodSetStatus computed =
        PodSetStatus.builder().observedGeneration(2).podNames(List.of()).build();

    assertThat(stored).isEqualTo(computed).hasSameHashCodeAs(computed);
  }

  @Test
  void condition_helperMethodsAreNotSerialized() {
    PodSetCondition condition = new PodSetCondition("Available", "True", null, null, null);

    assertThat(serialization.asJson(condition))
        .isEqualTo("{\"type\":\"Available\",\"status\":\"True\"}");
  }
}
