package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator's RBAC from {@code deploy/rbac} (its ServiceAccount, the ClusterRole and
 * ClusterRoleBinding for PodSets, pods and events, the Role and RoleBinding for its Lease), applied
 * as written: every verb and resource the operator uses is allowed, and a set of neighbours it must
 * not have (other verbs, subresources, namespaces, kinds, the cluster scope, a non-resource path)
 * is refused with kube-apiserver's 403 message; a SelfSubjectAccessReview gives the same answers.
 * The same class runs against the fake with RBAC enforced and against the real kube-apiserver.
 */
class RbacConformanceTest extends ConformanceTestBase {

  private static final Path RBAC = Path.of("..", "deploy", "rbac");
  private static final String SYSTEM = "podset-system";
  private static final String ACCOUNT = "podset-operator";
  private static final String USER = "system:serviceaccount:" + SYSTEM + ":" + ACCOUNT;
  private static final String PODSETS = "/apis/app.example.com/v1alpha1/namespaces/";
  private static final String POD =
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
  private static final String LEASE =
      "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
          + "\"metadata\":{\"name\":\"podset-operator\"}}";

  private final List<HasMetadata> applied = new ArrayList<>();
  private boolean createdSystemNamespace;
  private KubernetesClient operator;

  @Override
  boolean enforceRbac() {
    return true;
  }

  /**
   * One request: what the operator sends, whether deploy/rbac allows it, and the attributes its
   * refusal names.
   */
  record Case(
      String verb,
      String method,
      String path,
      String body,
      boolean allowed,
      String group,
      String resource,
      String name,
      String namespace) {

    @Override
    public String toString() {
      return (allowed ? "allowed " : "refused ") + verb + " " + resource + " " + name;
    }

    /** kube-apiserver's message for the refusal. */
    String message() {
      String where =
          namespace.isEmpty() ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
      String what =
          resource.isEmpty()
              ? "User \"" + USER + "\" cannot " + verb + " path \"" + path + "\""
              : "User \"%s\" cannot %s resource \"%s\" in API group \"%s\" %s"
                  .formatted(USER, verb, resource, group, where);
      if (resource.isEmpty()) {
        return "forbidden: " + what;
      }
      String base =
          resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
      String qualified = group.isEmpty() ? base : base + "." + group;
      return name.isEmpty()
          ? qualified + " is forbidden: " + what
          : qualified + " \"" + name + "\" is forbidden: " + what;
    }
  }

  @BeforeAll
  void deployRbac() throws IOException {
    if (client.namespaces().withName(SYSTEM).get() == null) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(SYSTEM).endMetadata().build())
          .create();
      createdSystemNamespace = true;
    }
    try (Stream<Path> files = Files.list(RBAC)) {
      for (Path file : files.sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          for (HasMetadata item : client.load(in).items()) {
            applied.add(client.resource(item).createOr(NonDeletingOperation::update));
          }
        }
      }
    }
    operator =
        new KubernetesClientBuilder()
            .withConfig(target.serviceAccountConfig(SYSTEM, ACCOUNT))
            .build();
  }

  @AfterAll
  void removeRbac() {
    if (operator != null) {
      operator.close();
    }
    for (HasMetadata item : applied) {
      if (item.getMetadata().getNamespace() == null) {
        client.resource(item).delete();
      }
    }
    if (createdSystemNamespace) {
      client.namespaces().withName(SYSTEM).delete();
    }
  }

  Stream<Arguments> cases() {
    String podsets = PODSETS + ns + "/podsets";
    String pods = "/api/v1/namespaces/" + ns + "/pods";
    String events = "/api/v1/namespaces/" + ns + "/events";
    String leases = "/apis/coordination.k8s.io/v1/namespaces/" + SYSTEM + "/leases";
    String psGroup = "app.example.com";
    String coord = "coordination.k8s.io";
    List<Case> cases =
        List.of(
            // What the operator does.
            allowed("get", "GET", podsets + "/x", psGroup, "podsets", "x", ns),
            allowed("list", "GET", podsets, psGroup, "podsets", "", ns),
            allowed(
                "list",
                "GET",
                "/apis/app.example.com/v1alpha1/podsets",
                psGroup,
                "podsets",
                "",
                ""),
            allowed(
                "watch", "GET", podsets + "?watch=1&timeoutSeconds=1", psGroup, "podsets", "", ns),
            allowed("patch", "PATCH", podsets + "/x/status", psGroup, "podsets/status", "x", ns),
            allowed("list", "GET", pods, "", "pods", "", ns),
            allowed("list", "GET", "/api/v1/pods", "", "pods", "", ""),
            allowed("watch", "GET", pods + "?watch=1&timeoutSeconds=1", "", "pods", "", ns),
            new Case("create", "POST", pods + "?dryRun=All", POD, true, "", "pods", "", ns),
            allowed("delete", "DELETE", pods + "/x", "", "pods", "x", ns),
            allowed("patch", "PATCH", pods + "/x", "", "pods", "x", ns),
            allowed("create", "POST", events + "?dryRun=All", "", "events", "", ns),
            allowed("patch", "PATCH", events + "/x", "", "events", "x", ns),
            allowed(
                "get",
                "GET",
                leases + "/podset-operator",
                coord,
                "leases",
                "podset-operator",
                SYSTEM),
            new Case(
                "create", "POST", leases + "?dryRun=All", LEASE, true, coord, "leases", "", SYSTEM),
            allowed(
                "update",
                "PUT",
                leases + "/podset-operator",
                coord,
                "leases",
                "podset-operator",
                SYSTEM),
            allowed("get", "GET", "/version", "", "", "", ""),
            allowed("get", "GET", "/apis", "", "", "", ""),
            // What it must not do.
            refused("update", "PUT", podsets + "/x", psGroup, "podsets", "x", ns),
            refused("delete", "DELETE", podsets + "/x", psGroup, "podsets", "x", ns),
            refused("create", "POST", podsets, psGroup, "podsets", "", ns),
            refused("deletecollection", "DELETE", podsets, psGroup, "podsets", "", ns),
            refused("update", "PUT", podsets + "/x/status", psGroup, "podsets/status", "x", ns),
            refused("get", "GET", podsets + "/x/status", psGroup, "podsets/status", "x", ns),
            refused("get", "GET", podsets + "/x/scale", psGroup, "podsets/scale", "x", ns),
            refused("get", "GET", pods + "/x", "", "pods", "x", ns),
            refused("update", "PUT", pods + "/x", "", "pods", "x", ns),
            refused("deletecollection", "DELETE", pods, "", "pods", "", ns),
            refused("patch", "PATCH", pods + "/x/status", "", "pods/status", "x", ns),
            refused("create", "POST", pods + "/x/eviction", "", "pods/eviction", "x", ns),
            refused("list", "GET", events, "", "events", "", ns),
            refused("delete", "DELETE", events + "/x", "", "events", "x", ns),
            refused(
                "get",
                "GET",
                "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/podset-operator",
                coord,
                "leases",
                "podset-operator",
                ns),
            refused("list", "GET", leases, coord, "leases", "", SYSTEM),
            refused(
                "delete",
                "DELETE",
                leases + "/podset-operator",
                coord,
                "leases",
                "podset-operator",
                SYSTEM),
            refused(
                "get",
                "GET",
                "/api/v1/namespaces/" + SYSTEM + "/secrets/x",
                "",
                "secrets",
                "x",
                SYSTEM),
            refused(
                "create",
                "POST",
                "/api/v1/namespaces/" + SYSTEM + "/serviceaccounts/" + ACCOUNT + "/token",
                "",
                "serviceaccounts/token",
                ACCOUNT,
                SYSTEM),
            refused("list", "GET", "/api/v1/nodes", "", "nodes", "", ""),
            refused("get", "GET", "/api/v1/namespaces/" + ns, "", "namespaces", ns, ns),
            refused(
                "list",
                "GET",
                "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                "rbac.authorization.k8s.io",
                "clusterroles",
                "",
                ""),
            refused("get", "GET", "/metrics", "", "", "", ""));
    return cases.stream().map(Arguments::of);
  }

  private static Case allowed(
      String verb,
      String method,
      String path,
      String group,
      String resource,
      String name,
      String namespace) {
    return new Case(verb, method, path, null, true, group, resource, name, namespace);
  }

  private static Case refused(
      String verb,
      String method,
      String path,
      String group,
      String resource,
      String name,
      String namespace) {
    return new Case(verb, method, path, null, false, group, resource, name, namespace);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void operatorRequest_isAllowedOrRefusedAsDeployRbacSays(Case c) {
    String contentType = c.method().equals("PATCH") ? "application/merge-patch+json" : null;
    String body = c.body() != null ? c.body() : c.method().equals("GET") ? null : "{}";
    Raw answer = raw(operator, c.method(), c.path(), contentType, body, Map.of());
    if (c.allowed()) {
      assertThat(answer.code()).as(c + ": " + answer.body()).isNotEqualTo(403);
      return;
    }
    assertThat(answer.code()).as(c + ": " + answer.body()).isEqualTo(403);
    JsonNode status = answer.body();
    assertThat(status.path("message").asText()).isEqualTo(c.message());
    assertThat(status.path("reason").asText()).isEqualTo("Forbidden");
    String resource = c.resource();
    String base = resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
    assertThat(status.path("details").path("kind").asText()).isEqualTo(base);
    assertThat(status.path("details").path("name").asText()).isEqualTo(c.name());
    assertThat(status.path("details").path("group").asText()).isEqualTo(c.group());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void selfSubjectAccessReview_answersAsTheRequest(Case c) {
    String spec =
        c.resource().isEmpty()
            ? "{\"nonResourceAttributes\":{\"verb\":\"%s\",\"path\":\"%s\"}}"
                .formatted(c.verb(), c.path())
            : "{\"resourceAttributes\":{\"verb\":\"%s\",\"group\":\"%s\",\"resource\":\"%s\","
                    .formatted(c.verb(), c.group(), resource(c))
                + "\"subresource\":\"%s\",\"name\":\"%s\",\"namespace\":\"%s\"}}"
                    .formatted(subresource(c), c.name(), c.namespace());
    JsonNode status = accessReview(operator, spec).path("status");
    assertThat(status.path("allowed").asBoolean()).as(c + ": " + status).isEqualTo(c.allowed());
    if (!c.allowed()) {
      assertThat(status.has("reason")).as(c + ": " + status).isFalse();
    } else if (c.resource().isEmpty()) {
      // Several default bindings grant discovery; the real server visits them in no fixed order.
      assertThat(status.path("reason").asText())
          .startsWith("RBAC: allowed by ClusterRoleBinding \"system:");
    } else {
      assertThat(status.path("reason").asText()).isEqualTo(grantedBy(c));
    }
  }

  /** The binding of deploy/rbac that grants an allowed request, as the RBAC authorizer names it. */
  private static String grantedBy(Case c) {
    String subject = "ServiceAccount \"" + ACCOUNT + "/" + SYSTEM + "\"";
    if (c.resource().equals("leases")) {
      return "RBAC: allowed by RoleBinding \"podset-operator-leader-election/podset-system\" of"
          + " Role \"podset-operator-leader-election\" to "
          + subject;
    }
    return "RBAC: allowed by ClusterRoleBinding \"podset-operator\" of ClusterRole"
        + " \"podset-operator\" to "
        + subject;
  }

  private static String resource(Case c) {
    String r = c.resource();
    return r.contains("/") ? r.substring(0, r.indexOf('/')) : r;
  }

  private static String subresource(Case c) {
    String r = c.resource();
    return r.contains("/") ? r.substring(r.indexOf('/') + 1) : "";
  }
}
