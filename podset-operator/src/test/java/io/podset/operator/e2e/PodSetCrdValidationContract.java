package io.podset.operator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How the API server treats PodSets against the CRD checked in under {@code deploy/}: the same
 * tests run against the fake ({@link PodSetCrdValidationTest}) and a real kube-apiserver ({@link
 * PodSetCrdValidationIT}), so the fake cannot drift from the real validation.
 */
abstract class PodSetCrdValidationContract {

  static final Path CRD = Path.of("../deploy/crds/podsets.app.example.com-v1.yml");
  static final Path EXAMPLE = Path.of("../deploy/examples/podset.yaml");

  private static NonNamespaceOperation<
          GenericKubernetesResource, ?, Resource<GenericKubernetesResource>>
      podSets(KubernetesClient client) {
    return client
        .genericKubernetesResources("app.example.com/v1alpha1", "PodSet")
        .inNamespace("default");
  }

  private static GenericKubernetesResource podSet(String name, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("app.example.com/v1alpha1")
        .withKind("PodSet")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  private static KubernetesClientException refused(
      KubernetesClient client, GenericKubernetesResource podSet) {
    KubernetesClientException e =
        catchThrowableOfType(
            KubernetesClientException.class, () -> podSets(client).resource(podSet).create());
    assertThat(e)
        .as("expected the server to refuse %s", podSet.getAdditionalProperties())
        .isNotNull();
    return e;
  }

  @Test
  void seedExample_isAcceptedAsWritten(KubernetesClient client) throws IOException {
    GenericKubernetesResource example;
    try (InputStream in = Files.newInputStream(EXAMPLE)) {
      example = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }

    GenericKubernetesResource created = podSets(client).resource(example).create();

    assertThat(created.<Integer>get("spec", "replicas")).isEqualTo(3);
  }

  @Test
  void replicasAbsent_defaultsToOne(KubernetesClient client) {
    GenericKubernetesResource created =
        podSets(client).resource(podSet("defaulted", Map.of())).create();

    assertThat(created.<Integer>get("spec", "replicas")).isEqualTo(1);
  }

  @Test
  void replicasNegative_isRejectedAsInvalid(KubernetesClient client) {
    KubernetesClientException e = refused(client, podSet("negative", Map.of("replicas", -1)));

    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(e.getMessage()).contains("spec.replicas");
  }

  @Test
  void replicasAboveMaximum_isRejectedAsInvalid(KubernetesClient client) {
    KubernetesClientException e = refused(client, podSet("huge", Map.of("replicas", 10001)));

    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getMessage()).contains("spec.replicas");
  }

  @Test
  void replicasString_isRejectedAsInvalid(KubernetesClient client) {
    KubernetesClientException e = refused(client, podSet("text", Map.of("replicas", "three")));

    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getMessage()).contains("spec.replicas").contains("integer");
  }

  @Test
  void unknownField_isPrunedByDefault(KubernetesClient client) {
    podSets(client).resource(podSet("pruned", Map.of("replicas", 2, "bogus", "x"))).create();

    GenericKubernetesResource read = podSets(client).withName("pruned").get();
    assertThat(read.<Integer>get("spec", "replicas")).isEqualTo(2);
    assertThat(read.<Map<String, Object>>get("spec")).doesNotContainKey("bogus");
  }

  @Test
  void unknownField_withStrictFieldValidation_isRejected(KubernetesClient client) {
    KubernetesClientException e =
        catchThrowableOfType(
            KubernetesClientException.class,
            () ->
                podSets(client)
                    .resource(podSet("strict", Map.of("replicas", 2, "bogus", "x")))
                    .fieldValidation(FieldValidateable.Validation.STRICT)
                    .create());

    assertThat(e).isNotNull();
    assertThat(e.getCode()).isEqualTo(400);
    assertThat(e.getMessage()).contains("unknown field").contains("spec.bogus");
    assertThat(podSets(client).withName("strict").get()).isNull();
  }
}
