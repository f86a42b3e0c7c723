package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The default ClusterRoles and ClusterRoleBindings kube-apiserver 1.34 creates at start that decide
 * what ordinary clients may do (read from a real server): {@code cluster-admin} for {@code
 * system:masters}; discovery, the review APIs and the public version and health paths for every
 * authenticated user ({@code system:discovery}, {@code system:basic-user}, {@code
 * system:public-info-viewer}, the last also for unauthenticated requests); the OIDC discovery paths
 * for ServiceAccounts ({@code system:service-account-issuer-discovery}). The roles of Kubernetes'
 * own components and the aggregated {@code admin}/{@code edit}/{@code view} are not created.
 */
public final class BootstrapPolicy {

  private BootstrapPolicy() {}

  /** A default object and the collection path it is created at. */
  public record Item(String collectionPath, ObjectNode object) {}

  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  private static final String BINDINGS = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";

  /** The defaults, each role before its binding. */
  public static List<Item> items() {
    List<Item> items = new ArrayList<>();
    role(
        items,
        "cluster-admin",
        """
        [{"apiGroups":["*"],"resources":["*"],"verbs":["*"]},
         {"nonResourceURLs":["*"],"verbs":["*"]}]""",
        "system:masters");
    role(
        items,
        "system:discovery",
        """
        [{"nonResourceURLs":["/api","/api/*","/apis","/apis/*","/healthz","/livez","/openapi",
          "/openapi/*","/readyz","/version","/version/"],"verbs":["get"]}]""",
        "system:authenticated");
    role(
        items,
        "system:basic-user",
        """
        [{"apiGroups":["authorization.k8s.io"],
          "resources":["selfsubjectaccessreviews","selfsubjectrulesreviews"],"verbs":["create"]},
         {"apiGroups":["authentication.k8s.io"],"resources":["selfsubjectreviews"],
          "verbs":["create"]}]""",
        "system:authenticated");
    role(
        items,
        "system:public-info-viewer",
        """
        [{"nonResourceURLs":["/healthz","/livez","/readyz","/version","/version/"],
          "verbs":["get"]}]""",
        "system:authenticated",
        "system:unauthenticated");
    role(
        items,
        "system:service-account-issuer-discovery",
        """
        [{"nonResourceURLs":["/.well-known/openid-configuration",
          "/.well-known/openid-configuration/","/openid/v1/jwks","/openid/v1/jwks/"],
          "verbs":["get"]}]""",
        "system:serviceaccounts");
    return items;
  }

  private static void role(List<Item> items, String name, String rules, String... groups) {
    ObjectNode role = object("ClusterRole", name);
    role.set("rules", parse(rules));
    items.add(new Item(ROLES, role));
    ObjectNode binding = object("ClusterRoleBinding", name);
    ObjectNode ref = binding.putObject("roleRef");
    ref.put("apiGroup", RbacIndex.GROUP);
    ref.put("kind", "ClusterRole");
    ref.put("name", name);
    for (String group : groups) {
      ObjectNode subject = binding.withArray("subjects").addObject();
      subject.put("apiGroup", RbacIndex.GROUP);
      subject.put("kind", "Group");
      subject.put("name", group);
    }
    items.add(new Item(BINDINGS, binding));
  }

  private static ObjectNode object(String kind, String name) {
    ObjectNode object = Json.object();
    object.put("apiVersion", RbacIndex.GROUP + "/v1");
    object.put("kind", kind);
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", name);
    meta.putObject("labels").put("kubernetes.io/bootstrapping", "rbac-defaults");
    meta.putObject("annotations").put("rbac.authorization.kubernetes.io/autoupdate", "true");
    return object;
  }

  private static com.fasterxml.jackson.databind.JsonNode parse(String json) {
    try {
      return Json.parse(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("bootstrap policy", e);
    }
  }
}
