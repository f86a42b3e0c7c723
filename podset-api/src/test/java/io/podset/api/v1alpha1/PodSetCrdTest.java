package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the generated CRD declares, and how its schema judges PodSets. */
class PodSetCrdTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static CustomResourceDefinition crd;
  private static CustomResourceDefinitionVersion version;
  private static StructuralSchema schema;

  @BeforeAll
  static void loadGeneratedCrd() throws Exception {
    String text = TestFiles.generatedCrd();
    crd = new KubernetesSerialization().unmarshal(text, CustomResourceDefinition.class);
    version = crd.getSpec().getVersions().get(0);
    schema =
        new StructuralSchema(YAML.readTree(text).at("/spec/versions/0/schema/openAPIV3Schema"));
  }

  @Test
  void names_matchTheSeed() {
    assertThat(crd.getMetadata().getName()).isEqualTo(PodSet.CRD_NAME);
    assertThat(crd.getSpec().getGroup()).isEqualTo("app.example.com");
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo("PodSet");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("podsets");
    assertThat(crd.getSpec().getNames().getSingular()).isEqualTo("podset");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("ps");
    assertThat(crd.getSpec().getVersions()).hasSize(1);
    assertThat(version.getName()).isEqualTo("v1alpha1");
    assertThat(version.getServed()).isTrue();
    assertThat(version.getStorage()).isTrue();
  }

  @Test
  void subresources_statusAndScale() {
    assertThat(version.getSubresources().getStatus()).isNotNull();
    var scale = version.getSubresources().getScale();
    assertThat(scale.getSpecReplicasPath()).isEqualTo(".spec.replicas");
    assertThat(scale.getStatusReplicasPath()).isEqualTo(".status.replicas");
    assertThat(scale.getLabelSelectorPath()).isEqualTo(".status.selector");
  }

  @Test
  void printerColumns_desiredCurrentReadyAge() {
    assertThat(version.getAdditionalPrinterColumns())
        .extracting(
            CustomResourceColumnDefinition::getName,
            CustomResourceColumnDefinition::getJsonPath,
            CustomResourceColumnDefinition::getType,
            CustomResourceColumnDefinition::getPriority)
        .containsExactlyInAnyOrder(
            tuple("Desired", ".spec.replicas", "integer", 0),
            tuple("Current", ".status.replicas", "integer", 0),
            tuple("Ready", ".status.readyReplicas", "integer", 0),
            tuple("Age", ".metadata.creationTimestamp", "date", 0));
  }

  @Test
  void replicas_defaultMinimumMaximum() {
    JSONSchemaProps replicas = specProperty("replicas");
    assertThat(replicas.getType()).isEqualTo("integer");
    assertThat(replicas.getDefault().asInt()).isEqualTo(PodSetDefaults.REPLICAS).isEqualTo(1);
    assertThat(replicas.getMinimum()).isEqualTo(0.0);
    assertThat(replicas.getMaximum()).isEqualTo(PodSetDefaults.MAX_REPLICAS).isEqualTo(10_000.0);
  }

  @Test
  void maxUnavailable_defaultOneMinimumOne() {
    JSONSchemaProps maxUnavailable =
        specProperty("updateStrategy").getProperties().get("maxUnavailable");
    assertThat(maxUnavailable.getType()).isEqualTo("integer");
    assertThat(maxUnavailable.getDefault().asInt()).isEqualTo(1);
    assertThat(maxUnavailable.getMinimum()).isEqualTo(1.0);
  }

  @Test
  void spec_hasNoRequiredFields_andTemplateMetadataIsTyped() {
    JSONSchemaProps spec = version.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    assertThat(spec.getRequired()).isNullOrEmpty();
    JSONSchemaProps metadata = specProperty("template").getProperties().get("metadata");
    assertThat(metadata.getProperties()).containsOnlyKeys("labels", "annotations", "finalizers");
    assertThat(
            metadata.getProperties().get("labels").getAdditionalProperties().getSchema().getType())
        .isEqualTo("string");
    assertThat(specProperty("template").getProperties().get("spec").getProperties())
        .containsKeys("containers", "volumes", "nodeSelector");
  }

  @Test
  void status_hasEveryField() {
    JSONSchemaProps status = version.getSchema().getOpenAPIV3Schema().getProperties().get("status");
    assertThat(status.getProperties())
        .containsOnlyKeys(
            "replicas",
            "readyReplicas",
            "availableReplicas",
            "updatedReplicas",
            "podNames",
            "observedGeneration",
            "selector",
            "conditions");
    JSONSchemaProps condition = status.getProperties().get("conditions").getItems().getSchema();
    assertThat(condition.getProperties())
        .containsOnlyKeys("type", "status", "reason", "message", "lastTransitionTime");
    assertThat(condition.getRequired()).containsExactlyInAnyOrder("type", "status");
  }

  @Test
  void seedExample_isValidAsWritten() throws Exception {
    String seed = TestFiles.read(TestFiles.path("podset.example"));

    StructuralSchema.Result result = schema.validate(YAML.readTree(seed));

    assertThat(result.errors()).isEmpty();
    assertThat(result.pruned()).isEmpty();
  }

  @Test
  void emptySpec_isValid() throws Exception {
    assertThat(validate("spec: {}").errors()).isEmpty();
    assertThat(validate("").errors()).isEmpty();
  }

  @Test
  void hugeReplicas_isRefusedWithClearMessage() throws Exception {
    assertThat(validate("spec: {replicas: 1000000}").errors())
        .containsExactly(
            "spec.replicas: Invalid value: 1000000: spec.replicas in body should be less than"
                + " or equal to 10000");
  }

  @Test
  void negativeReplicas_isRefused() throws Exception {
    assertThat(validate("spec: {replicas: -1}").errors())
        .containsExactly(
            "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or"
                + " equal to 0");
  }

  @Test
  void maxReplicasAndZero_areAccepted() throws Exception {
    assertThat(validate("spec: {replicas: 10000}").errors()).isEmpty();
    assertThat(validate("spec: {replicas: 0}").errors()).isEmpty();
  }

  @Test
  void maxUnavailableZero_isRefused() throws Exception {
    assertThat(validate("spec: {updateStrategy: {maxUnavailable: 0}}").errors())
        .containsExactly(
            "spec.updateStrategy.maxUnavailable: Invalid value: 0:"
                + " spec.updateStrategy.maxUnavailable in body should be greater than or equal to 1");
  }

  @Test
  void fullTemplate_isValid_andTemplateLabelsAreKept() throws Exception {
    StructuralSchema.Result result =
        validate(
            """
            spec:
              replicas: 2
              updateStrategy: {maxUnavailable: 2}
              template:
                metadata:
                  labels: {app: web}
                  annotations: {note: x}
                spec:
                  containers:
                  - name: web
                    image: nginx:1.27
                    ports: [{containerPort: 80}]
                    resources: {limits: {cpu: 500m, memory: 64Mi}}
                    readinessProbe: {httpGet: {path: /, port: http}}
            """);

    assertThat(result.errors()).isEmpty();
    assertThat(result.pruned()).isEmpty();
  }

  @Test
  void templateMetadataName_isPruned_andNonStringLabel_isRefused() throws Exception {
    StructuralSchema.Result result =
        validate("spec: {template: {metadata: {name: x, labels: {app: 5}}}}");

    assertThat(result.pruned()).containsExactly("spec.template.metadata.name");
    assertThat(result.errors())
        .containsExactly(
            "spec.template.metadata.labels.app: Invalid value: 5:"
                + " spec.template.metadata.labels.app in body must be of type string");
  }

  @Test
  void replicasAsString_isRefused() throws Exception {
    assertThat(validate("spec: {replicas: \"3\"}").errors())
        .containsExactly(
            "spec.replicas: Invalid value: \"3\": spec.replicas in body must be of type integer");
  }

  private static StructuralSchema.Result validate(String yamlBody) throws Exception {
    JsonNode object =
        YAML.readTree(
            "apiVersion: app.example.com/v1alpha1\nkind: PodSet\nmetadata: {name: p}\n" + yamlBody);
    return schema.validate(object);
  }

  private static JSONSchemaProps specProperty(String name) {
    return version
        .getSchema()
        .getOpenAPIV3Schema()
        .getProperties()
        .get("spec")
        .getProperties()
        .get(name);
  }
}
