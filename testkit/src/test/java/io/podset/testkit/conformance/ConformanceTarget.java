package io.podset.testkit.conformance;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.testkit.FakeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The API server the conformance suite runs against: a fresh {@link FakeApiServer}; the real
 * control plane of {@code io.podset.testkit.envtest} when the system property {@value
 * #TARGET_PROPERTY} is {@code real} (one server shared by the suite's classes, see {@link
 * SharedRealApiServer}); or the cluster of the kubeconfig named by the system property {@value
 * #KUBECONFIG_PROPERTY} (or the environment variable {@code CONFORMANCE_KUBECONFIG}). Each suite
 * class works in its own namespace, deleted at the end.
 */
final class ConformanceTarget implements AutoCloseable {

  static final String KUBECONFIG_PROPERTY = "conformance.kubeconfig";
  static final String TARGET_PROPERTY = "conformance.target";

  static final ResourceDefinitionContext WIDGETS =
      new ResourceDefinitionContext.Builder()
          .withGroup("conformance.podset.io")
          .withVersion("v1")
          .withKind("Widget")
          .withPlural("widgets")
          .withNamespaced(true)
          .build();

  private final FakeApiServer server;
  private final KubernetesClient client;
  private final List<String> namespaces = new ArrayList<>();

  private ConformanceTarget(FakeApiServer server, KubernetesClient client) {
    this.server = server;
    this.client = client;
  }

  static ConformanceTarget open() {
    return open(false);
  }

  /**
   * Opens the target; {@code enforceRbac} starts the fake with RBAC enforced (the real control
   * plane always enforces it).
   */
  static ConformanceTarget open(boolean enforceRbac) {
    if ("real".equals(System.getProperty(TARGET_PROPERTY))) {
      return new ConformanceTarget(null, SharedRealApiServer.get().newClient());
    }
    String kubeconfig =
        System.getProperty(KUBECONFIG_PROPERTY, System.getenv("CONFORMANCE_KUBECONFIG"));
    if (kubeconfig != null && !kubeconfig.isBlank()) {
      try {
        Config config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
        return new ConformanceTarget(
            null, new KubernetesClientBuilder().withConfig(config).build());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read kubeconfig " + kubeconfig, e);
      }
    }
    FakeApiServer server =
        enforceRbac ? FakeApiServer.builder().enforceRbac().start() : FakeApiServer.start();
    return new ConformanceTarget(server, server.newClient());
  }

  KubernetesClient client() {
    return client;
  }

  /** A kubeconfig for clients of other languages (the client-go suite), written to {@code path}. */
  Path writeKubeconfig(Path path) {
    if (server != null) {
      return server.writeKubeconfig(path);
    }
    if ("real".equals(System.getProperty(TARGET_PROPERTY))) {
      return SharedRealApiServer.get().writeKubeconfig(path);
    }
    return Path.of(
        System.getProperty(KUBECONFIG_PROPERTY, System.getenv("CONFORMANCE_KUBECONFIG")));
  }

  /**
   * The configuration of a client that authenticates as a ServiceAccount (created when absent) with
   * a token from the TokenRequest API; a cluster named by kubeconfig skips the test.
   */
  Config serviceAccountConfig(String namespace, String serviceAccount) {
    if (server != null) {
      return server.serviceAccountConfig(namespace, serviceAccount);
    }
    if ("real".equals(System.getProperty(TARGET_PROPERTY))) {
      return SharedRealApiServer.get().serviceAccountConfig(namespace, serviceAccount);
    }
    org.junit.jupiter.api.Assumptions.abort("ServiceAccount tokens need the fake or envtest");
    throw new AssertionError("unreachable");
  }

  /** The fake server, when the suite runs against it. */
  Optional<FakeApiServer> fake() {
    return Optional.ofNullable(server);
  }

  /** Creates a namespace with a generated name, deleted on close. */
  String createNamespace() {
    String name =
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withGenerateName("conformance-")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getName();
    namespaces.add(name);
    return name;
  }

  /** Installs the Widget CRD (idempotent) and waits until it is Established. */
  void installWidgetCrd() {
    installCrd("/conformance-widget-crd.yaml");
  }

  /** Installs the CRD of a test resource (idempotent) and waits until it is Established. */
  void installCrd(String resource) {
    try (InputStream in = getClass().getResourceAsStream(resource)) {
      installCrd(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Installs the CRD of a file (idempotent), such as deploy/crds', and waits until Established. */
  void installCrd(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      installCrd(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void installCrd(InputStream in) {
    CustomResourceDefinition crd =
        client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    var crds = client.apiextensions().v1().customResourceDefinitions();
    if (crds.withName(crd.getMetadata().getName()).get() == null) {
      crds.resource(crd).create();
    }
    crds.withName(crd.getMetadata().getName())
        .waitUntilCondition(
            c ->
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getConditions() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(
                            x -> x.getType().equals("Established") && x.getStatus().equals("True")),
            30,
            TimeUnit.SECONDS);
  }

  NonNamespaceOperation<GenericKubernetesResource, ?, Resource<GenericKubernetesResource>> widgets(
      String namespace) {
    return client.genericKubernetesResources(WIDGETS).inNamespace(namespace);
  }

  @Override
  public void close() {
    try {
      for (String namespace : namespaces) {
        client.namespaces().withName(namespace).delete();
      }
    } finally {
      client.close();
      if (server != null) {
        server.close();
      }
    }
  }
}
