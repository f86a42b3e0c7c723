package ${package}.${kindLower};

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.junit5.WithFakeApiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator against the testkit's fake API server: a real HTTP server with resourceVersions,
 * watches, the status subresource, CRD validation and owner-reference garbage collection, so the
 * manager, its informers and its client run as they do in a cluster. Only this API's controller
 * runs here (its CRD is the only one installed), so each API's tests stand alone.
 */
@WithFakeApiServer(crds = "META-INF/fabric8/${plural}.${group}-v1.yml")
class ${kind}ReconcilerTest {

  private Manager manager;

  @BeforeEach
  void startOperator(KubernetesClient client) {
    manager = Manager.builder(client).healthPort(0).metricsPort(0).build();
    new ${kind}Reconciler().register(manager);
    manager.start();
  }

  @AfterEach
  void stopOperator() {
    manager.close();
  }

  @Test
  void new${kind}_publishesItsMessage_andReportsReady(KubernetesClient client) {
    create(client, "hello", "Hello, world");

    awaitMessage(client, "hello", "Hello, world");
    Eventually.await(
        "the ${kind} is Ready",
        () -> client.resources(${kind}.class).withName("hello").get(),
        r -> r.getStatus() != null && Conditions.isTrue(r.getStatus().getConditions(), "Ready"));
    ConfigMap configMap = client.configMaps().withName("hello").get();
    assertThat(configMap.getMetadata().getOwnerReferences())
        .as("owned by the ${kind}, so the garbage collector deletes it with it")
        .singleElement()
        .satisfies(owner -> assertThat(owner.getController()).isTrue());
  }

  @Test
  void changedMessage_isPublished(KubernetesClient client) {
    create(client, "changed", "first");
    awaitMessage(client, "changed", "first");

    // A merge patch without a resourceVersion: the operator writes the status meanwhile.
    client
        .resources(${kind}.class)
        .withName("changed")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"message\":\"second\"}}");

    awaitMessage(client, "changed", "second");
  }

  @Test
  void configMapChangedOrDeletedByOthers_isRestored(KubernetesClient client) {
    create(client, "drift", "kept");
    awaitMessage(client, "drift", "kept");

    client
        .configMaps()
        .withName("drift")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"message\":\"overwritten\"}}");
    awaitMessage(client, "drift", "kept");

    client.configMaps().withName("drift").delete();
    Eventually.await(
        "the ConfigMap recreated",
        () -> client.configMaps().withName("drift").get(),
        cm -> cm != null && cm.getMetadata().getDeletionTimestamp() == null
            && "kept".equals(cm.getData().get("message")));
  }

  @Test
  void ${kindLower}WithoutMessage_isRefusedByTheCrdSchema(KubernetesClient client) {
    ${kind} invalid = new ${kind}();
    invalid.getMetadata().setName("invalid");
    invalid.setSpec(new ${kind}Spec(null));

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> client.resource(invalid).inNamespace("default").create())
        .hasMessageContaining("message");
  }

  private static void create(KubernetesClient client, String name, String message) {
    ${kind} resource = new ${kind}();
    resource.getMetadata().setName(name);
    resource.setSpec(new ${kind}Spec(message));
    client.resource(resource).inNamespace("default").create();
  }

  private static void awaitMessage(KubernetesClient client, String name, String message) {
    Eventually.await(
        "the ConfigMap " + name + " holds '" + message + "'",
        () -> client.configMaps().withName(name).get(),
        cm -> cm != null && message.equals(cm.getData().get("message")));
  }
}
