package io.podset.runtime.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.reconcile.TerminalReconcileException;
import io.podset.testkit.FakeApiServer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The status write a controller makes from a cached copy, against a real HTTP API server. */
class StatusWriterIT {

  /** A custom resource with a free-form spec and status. */
  @Group("tests.podset.io")
  @Version("v1")
  public static final class Site extends CustomResource<Map<String, Object>, Map<String, Object>>
      implements Namespaced {}

  private FakeApiServer server;
  private KubernetesClient client;
  private StatusWriter statuses;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    server.installCrd(Site.class);
    client = server.client();
    statuses = StatusWriter.of(client);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Site create(String name) {
    Site site = new Site();
    site.getMetadata().setName(name);
    site.getMetadata().setNamespace("default");
    site.setSpec(Map.of("html", "<p>hi</p>"));
    return client.resource(site).create();
  }

  private Site live(String name) {
    return client.resources(Site.class).inNamespace("default").withName(name).get();
  }

  @Test
  void aStaleCopy_replacesTheStatus_withoutAConflict() {
    Site cached = create("web");
    client
        .resources(Site.class)
        .inNamespace("default")
        .withName("web")
        .edit(
            site -> {
              site.setSpec(Map.of("html", "<p>changed</p>"));
              return site;
            });

    Optional<WrittenObject> written = statuses.replace(cached, Map.of("ready", true));

    Site now = live("web");
    assertThat(now.getStatus()).isEqualTo(Map.of("ready", true));
    assertThat(written)
        .map(WrittenObject::resourceVersion)
        .contains(now.getMetadata().getResourceVersion());
    assertThat(now.getSpec())
        .as("the status write leaves the spec")
        .containsEntry("html", "<p>changed</p>");
  }

  @Test
  void aNewObjectOfTheSameName_isNotWritten() {
    Site cached = create("web");
    client.resource(cached).delete();
    Site replacement = create("web");

    assertThat(statuses.replace(cached, Map.of("ready", true))).isEmpty();
    assertThat(live("web").getStatus()).isNull();
    assertThat(live("web").getMetadata().getUid()).isEqualTo(replacement.getMetadata().getUid());
  }

  @Test
  void aDeletedObject_isNotWritten() {
    Site cached = create("web");
    client.resource(cached).delete();

    assertThat(statuses.replace(cached, Map.of("ready", true))).isEmpty();
  }

  @Test
  void aCrdWithoutTheStatusSubresource_failsTerminally_namingTheFix() {
    var crd = server.installCrd(Site.class);
    crd.getSpec().getVersions().forEach(version -> version.setSubresources(null));
    crd.getMetadata().setResourceVersion(null);
    server.installCrd(crd);
    Site cached = create("web");

    assertThatThrownBy(() -> statuses.replace(cached, Map.of("ready", true)))
        .isInstanceOf(TerminalReconcileException.class)
        .hasMessageContaining("Site web")
        .hasMessageContaining("subresources: {status: {}}");
  }
}
