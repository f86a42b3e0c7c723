package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.podset.testkit.Eventually;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The RBAC authorizer's rules, authentication and the review APIs, on the fake with RBAC enforced
 * and on kube-apiserver: resourceNames, {@code *}/subresource, create by server-side apply,
 * non-resource URLs, bindings to missing roles, ClusterRole aggregation, impersonation, bad and
 * anonymous tokens, TokenRequest and the self-subject reviews. Each test uses its own
 * ServiceAccount.
 */
class RbacRulesConformanceTest extends ConformanceTestBase {

  private final List<HasMetadata> clusterScoped = new ArrayList<>();
  private final List<KubernetesClient> clients = new ArrayList<>();

  @Override
  boolean enforceRbac() {
    return true;
  }

  @AfterAll
  void cleanUp() {
    clients.forEach(KubernetesClient::close);
    for (HasMetadata item : clusterScoped) {
      client.resource(item).delete();
    }
  }

  /** Creates or updates the objects of a YAML text as the admin. */
  private void apply(String yaml) {
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      HasMetadata stored = client.resource(item).createOr(NonDeletingOperation::update);
      if (stored.getMetadata().getNamespace() == null) {
        clusterScoped.add(stored);
      }
    }
  }

  /**
   * A Role of the test namespace named {@code account}, with {@code rules} (YAML list items), bound
   * to the ServiceAccount {@code account}.
   */
  private void grant(String account, String rules) {
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata: {name: %1$s, namespace: %2$s}
        rules:
        %3$s
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: %1$s, namespace: %2$s}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: %1$s}
        subjects: [{kind: ServiceAccount, name: %1$s, namespace: %2$s}]
        """
            .formatted(account, ns, rules.stripTrailing()));
  }

  /** A client of the ServiceAccount {@code name} of the test namespace. */
  private KubernetesClient account(String name) {
    KubernetesClient c =
        new KubernetesClientBuilder().withConfig(target.serviceAccountConfig(ns, name)).build();
    clients.add(c);
    return c;
  }

  private static String user(String namespace, String account) {
    return "system:serviceaccount:" + namespace + ":" + account;
  }

  /** A client with the server's URL and {@code token} (none when null), nothing else. */
  private KubernetesClient withToken(String token) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(client.getMasterUrl().toString())
            .withTrustCerts(true)
            .withOauthToken(token)
            .build();
    KubernetesClient c = new KubernetesClientBuilder().withConfig(config).build();
    clients.add(c);
    return c;
  }

  private KubernetesClient impersonating(KubernetesClient as, String user, String... groups) {
    Config config =
        new ConfigBuilder(as.getConfiguration())
            .withImpersonateUsername(user)
            .withImpersonateGroups(groups)
            .build();
    KubernetesClient c = new KubernetesClientBuilder().withConfig(config).build();
    clients.add(c);
    return c;
  }

  private static Raw get(KubernetesClient as, String path) {
    return raw(as, "GET", path, null, null, Map.of());
  }

  private static void assertForbidden(Raw answer, String message) {
    assertThat(answer.code()).as(String.valueOf(answer.body())).isEqualTo(403);
    assertThat(answer.body().path("message").asText()).isEqualTo(message);
  }

  private static void assertNotForbidden(Raw answer) {
    assertThat(answer.code()).as(String.valueOf(answer.body())).isNotIn(401, 403);
  }

  private String configMaps() {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  @Test
  void resourceNames_grantOnlyRequestsThatNameTheObject() {
    String sa = "names";
    grant(
        "names",
        """
        - apiGroups: [""]
          resources: ["configmaps"]
          resourceNames: ["cm1"]
          verbs: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"]
        """);
    KubernetesClient as = account(sa);
    String who = "User \"" + user(ns, sa) + "\" cannot ";
    String inNs = " in API group \"\" in the namespace \"" + ns + "\"";
    assertThat(get(as, configMaps() + "/cm1").code()).isEqualTo(404);
    assertForbidden(
        get(as, configMaps() + "/cm2"),
        "configmaps \"cm2\" is forbidden: " + who + "get resource \"configmaps\"" + inNs);
    assertForbidden(
        get(as, configMaps()),
        "configmaps is forbidden: " + who + "list resource \"configmaps\"" + inNs);
    // A list or watch selecting one name by field is authorized with that name.
    assertThat(get(as, configMaps() + "?fieldSelector=metadata.name%3Dcm1").code()).isEqualTo(200);
    assertForbidden(
        get(as, configMaps() + "?fieldSelector=metadata.name%3Dcm2"),
        "configmaps \"cm2\" is forbidden: " + who + "list resource \"configmaps\"" + inNs);
    // A create names no object: resourceNames never grant it.
    assertForbidden(
        raw(
            as,
            "POST",
            configMaps(),
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm1\"}}",
            Map.of()),
        "configmaps is forbidden: " + who + "create resource \"configmaps\"" + inNs);
    // A server-side apply that creates is authorized for create with the object's name.
    Raw applied =
        raw(
            as,
            "PATCH",
            configMaps() + "/cm1?fieldManager=test",
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm1\"}}",
            Map.of());
    assertThat(applied.code()).as(String.valueOf(applied.body())).isEqualTo(201);
    assertThat(get(as, configMaps() + "/cm1").code()).isEqualTo(200);
    assertForbidden(
        raw(as, "DELETE", configMaps(), "application/json", "{}", Map.of()),
        "configmaps is forbidden: " + who + "deletecollection resource \"configmaps\"" + inNs);
    assertThat(raw(as, "DELETE", configMaps() + "/cm1", "application/json", "{}", Map.of()).code())
        .isEqualTo(200);
  }

  @Test
  void applyOfAnAbsentObject_needsCreateAsWellAsPatch() {
    String sa = "patcher";
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata: {name: patcher, namespace: %1$s}
        rules:
        - apiGroups: [""]
          resources: ["secrets"]
          verbs: ["patch"]
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: patcher, namespace: %1$s}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: patcher}
        subjects: [{kind: ServiceAccount, name: patcher}]
        """
            .formatted(ns));
    KubernetesClient as = account(sa);
    String secrets = "/api/v1/namespaces/" + ns + "/secrets";
    assertForbidden(
        raw(
            as,
            "PATCH",
            secrets + "/s1?fieldManager=test",
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s1\"}}",
            Map.of()),
        "secrets \"s1\" is forbidden: User \""
            + user(ns, sa)
            + "\" cannot create resource \"secrets\" in API group \"\" in the namespace \""
            + ns
            + "\"");
    // A merge patch of an absent object is a 404 (the binding's subject without namespace is the
    // binding's namespace's ServiceAccount).
    assertThat(
            raw(as, "PATCH", secrets + "/s1", "application/merge-patch+json", "{}", Map.of())
                .code())
        .isEqualTo(404);
  }

  @Test
  void subresources_matchByNameOrWildcard() {
    String sa = "subresources";
    grant(
        "subresources",
        """
        - apiGroups: ["apps"]
          resources: ["*/scale"]
          verbs: ["get"]
        - apiGroups: [""]
          resources: ["pods/status"]
          verbs: ["update"]
        """);
    KubernetesClient as = account(sa);
    String who = "User \"" + user(ns, sa) + "\" cannot ";
    String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments/d";
    assertThat(get(as, deployments + "/scale").code()).isEqualTo(404);
    assertForbidden(
        get(as, deployments),
        "deployments.apps \"d\" is forbidden: "
            + who
            + "get resource \"deployments\" in API group \"apps\" in the namespace \""
            + ns
            + "\"");
    String pod = "/api/v1/namespaces/" + ns + "/pods/p";
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}";
    assertThat(raw(as, "PUT", pod + "/status", "application/json", body, Map.of()).code())
        .isEqualTo(404);
    assertForbidden(
        raw(as, "PUT", pod, "application/json", body, Map.of()),
        "pods \"p\" is forbidden: "
            + who
            + "update resource \"pods\" in API group \"\" in the namespace \""
            + ns
            + "\"");
  }

  @Test
  void nonResourceUrls_matchExactlyOrByPrefix() {
    String sa = "urls";
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: conformance-urls-%1$s}
        rules:
        - nonResourceURLs: ["/metrics", "/logs/*"]
          verbs: ["get"]
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata: {name: conformance-urls-%1$s}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: conformance-urls-%1$s}
        subjects: [{kind: ServiceAccount, name: urls, namespace: %1$s}]
        """
            .formatted(ns));
    KubernetesClient as = account(sa);
    assertNotForbidden(get(as, "/metrics"));
    assertNotForbidden(get(as, "/logs/anything"));
    assertForbidden(
        get(as, "/logs"), "forbidden: User \"" + user(ns, sa) + "\" cannot get path \"/logs\"");
    assertForbidden(
        get(as, "/metricsx"),
        "forbidden: User \"" + user(ns, sa) + "\" cannot get path \"/metricsx\"");
  }

  @Test
  void bindingToAMissingRole_isNamedInTheRefusal() {
    String sa = "dangling";
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: dangling, namespace: %1$s}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: conformance-missing}
        subjects: [{kind: ServiceAccount, name: dangling, namespace: %1$s}]
        """
            .formatted(ns));
    KubernetesClient as = account(sa);
    assertForbidden(
        get(as, "/api/v1/namespaces/" + ns + "/secrets"),
        "secrets is forbidden: User \""
            + user(ns, sa)
            + "\" cannot list resource \"secrets\" in API group \"\" in the namespace \""
            + ns
            + "\": RBAC: clusterrole.rbac.authorization.k8s.io \"conformance-missing\" not found");
    JsonNode rules = rulesReview(as, ns);
    // The RBAC authorizer reports the error but not the rules as incomplete.
    assertThat(rules.path("status").path("incomplete").asBoolean()).as(rules.toString()).isFalse();
    assertThat(rules.path("status").path("evaluationError").asText())
        .as(rules.toString())
        .isEqualTo("clusterrole.rbac.authorization.k8s.io \"conformance-missing\" not found");
  }

  @Test
  void bindingCollectedAsGarbage_grantsNothing() {
    String sa = "orphan";
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata: {name: orphan, namespace: %1$s}
        rules:
        - apiGroups: [""]
          resources: ["configmaps"]
          verbs: ["list"]
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata:
          name: orphan
          namespace: %1$s
          ownerReferences:
          - apiVersion: v1
            kind: ConfigMap
            name: gone
            uid: 0b7c3f55-0000-4000-8000-000000000000
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: orphan}
        subjects: [{kind: ServiceAccount, name: orphan, namespace: %1$s}]
        """
            .formatted(ns));
    KubernetesClient as = account(sa);
    Eventually.await(
        "the garbage collector deleted the binding of an absent owner",
        () -> client.rbac().roleBindings().inNamespace(ns).withName("orphan").get() == null);
    assertForbidden(
        get(as, configMaps()),
        "configmaps is forbidden: User \""
            + user(ns, sa)
            + "\" cannot list resource \"configmaps\" in API group \"\" in the namespace \""
            + ns
            + "\"");
  }

  @Test
  void aggregatedClusterRole_collectsTheRulesOfMatchingRoles() {
    String sa = "aggregated";
    String label = "conformance.podset.io/aggregate-to-" + ns;
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: conformance-aggregate-%1$s}
        aggregationRule:
          clusterRoleSelectors:
          - matchLabels: {"%2$s": "true"}
        rules: []
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: conformance-part-%1$s
          labels: {"%2$s": "true"}
        rules:
        - apiGroups: [""]
          resources: ["configmaps"]
          verbs: ["list"]
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: aggregated, namespace: %1$s}
        roleRef:
          apiGroup: rbac.authorization.k8s.io
          kind: ClusterRole
          name: conformance-aggregate-%1$s
        subjects: [{kind: ServiceAccount, name: aggregated, namespace: %1$s}]
        """
            .formatted(ns, label));
    KubernetesClient as = account(sa);
    var roles = client.rbac().clusterRoles();
    Eventually.await(
        "the aggregated ClusterRole has the part's rule",
        () -> roles.withName("conformance-aggregate-" + ns).get(),
        r -> r.getRules() != null && r.getRules().size() == 1);
    assertThat(roles.withName("conformance-aggregate-" + ns).get().getRules().get(0).getResources())
        .containsExactly("configmaps");
    Eventually.await("the aggregated rule is in force", () -> get(as, configMaps()).code() == 200);
    roles.withName("conformance-part-" + ns).delete();
    Eventually.await(
        "the aggregated ClusterRole lost the part's rule",
        () -> roles.withName("conformance-aggregate-" + ns).get(),
        r -> r.getRules() == null || r.getRules().isEmpty());
    Eventually.await("the aggregated rule is gone", () -> get(as, configMaps()).code() == 403);
  }

  @Test
  void impersonation_needsTheImpersonateVerbForUserAndGroups() {
    String sa = "impersonator";
    KubernetesClient as = account(sa);
    String pods = "/api/v1/namespaces/" + ns + "/pods";
    String bob =
        "pods is forbidden: User \"bob\" cannot list resource \"pods\" in API group \"\""
            + " in the namespace \""
            + ns
            + "\"";
    // The admin may impersonate anyone; the request is then authorized as bob.
    assertForbidden(get(impersonating(client, "bob"), pods), bob);
    String who = "User \"" + user(ns, sa) + "\" cannot impersonate resource ";
    assertForbidden(
        get(impersonating(as, "bob"), pods),
        "users \"bob\" is forbidden: " + who + "\"users\" in API group \"\" at the cluster scope");
    apply(
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: conformance-impersonate-%1$s}
        rules:
        - apiGroups: [""]
          resources: ["users"]
          resourceNames: ["bob"]
          verbs: ["impersonate"]
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata: {name: conformance-impersonate-%1$s}
        roleRef:
          apiGroup: rbac.authorization.k8s.io
          kind: ClusterRole
          name: conformance-impersonate-%1$s
        subjects: [{kind: ServiceAccount, name: impersonator, namespace: %1$s}]
        """
            .formatted(ns));
    assertForbidden(get(impersonating(as, "bob"), pods), bob);
    assertForbidden(
        get(impersonating(as, "bob", "g1"), pods),
        "groups \"g1\" is forbidden: " + who + "\"groups\" in API group \"\" at the cluster scope");
    assertForbidden(
        get(impersonating(as, "alice"), pods),
        "users \"alice\" is forbidden: "
            + who
            + "\"users\" in API group \"\" at the cluster scope");
    JsonNode info = selfReview(impersonating(client, "bob", "g1", "g2"));
    assertThat(info.path("username").asText()).isEqualTo("bob");
    assertThat(strings(info.path("groups"))).containsExactly("g1", "g2", "system:authenticated");
    JsonNode asAccount = selfReview(impersonating(client, user(ns, "someone")));
    assertThat(strings(asAccount.path("groups")))
        .containsExactly(
            "system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated");
  }

  @Test
  void tokens_badOnesAre401_noneIsAnonymous() {
    Raw bad = get(withToken("not-a-token"), "/api/v1/namespaces/" + ns + "/pods");
    assertThat(bad.code()).isEqualTo(401);
    assertSameJson(
        "401 body",
        bad.body(),
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
    KubernetesClient anonymous = withToken(null);
    assertForbidden(
        get(anonymous, "/api/v1/namespaces/" + ns + "/pods"),
        "pods is forbidden: User \"system:anonymous\" cannot list resource \"pods\" in API group"
            + " \"\" in the namespace \""
            + ns
            + "\"");
    assertForbidden(
        get(anonymous, "/api"), "forbidden: User \"system:anonymous\" cannot get path \"/api\"");
    assertThat(get(anonymous, "/version").code()).isEqualTo(200);
  }

  @Test
  void tokenRequest_issuesATokenThatDiesWithItsServiceAccount() {
    KubernetesClient as = account("shortlived");
    String uid =
        client
            .serviceAccounts()
            .inNamespace(ns)
            .withName("shortlived")
            .get()
            .getMetadata()
            .getUid();
    JsonNode info = selfReview(as);
    assertThat(info.path("username").asText()).isEqualTo(user(ns, "shortlived"));
    assertThat(info.path("uid").asText()).isEqualTo(uid);
    assertThat(strings(info.path("groups")))
        .containsExactly(
            "system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated");

    String path = "/api/v1/namespaces/" + ns + "/serviceaccounts/shortlived/token";
    Raw issued = raw("POST", path, "application/json", "{}", Map.of());
    assertThat(issued.code()).isEqualTo(201);
    JsonNode answer = issued.body();
    assertThat(answer.path("kind").asText()).isEqualTo("TokenRequest");
    assertThat(answer.path("metadata").path("uid").asText()).isEqualTo(uid);
    assertThat(strings(answer.path("spec").path("audiences")))
        .containsExactly("https://kubernetes.default.svc.cluster.local");
    assertThat(answer.path("spec").path("expirationSeconds").asLong()).isEqualTo(3600);
    Instant created = Instant.parse(answer.path("metadata").path("creationTimestamp").asText());
    Instant expires = Instant.parse(answer.path("status").path("expirationTimestamp").asText());
    assertThat(expires).isEqualTo(created.plusSeconds(3600));
    assertThat(answer.path("status").path("token").asText()).isNotEmpty();

    Raw tooShort =
        raw("POST", path, "application/json", "{\"spec\":{\"expirationSeconds\":100}}", Map.of());
    assertThat(tooShort.code()).isEqualTo(422);
    assertThat(tooShort.body().path("message").asText())
        .isEqualTo(
            "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid"
                + " value: 100: may not specify a duration less than 10 minutes");
    Raw missing =
        raw(
            "POST",
            "/api/v1/namespaces/" + ns + "/serviceaccounts/nobody/token",
            "application/json",
            "{}",
            Map.of());
    assertThat(missing.code()).isEqualTo(404);
    assertThat(missing.body().path("message").asText())
        .isEqualTo("serviceaccounts \"nobody\" not found");

    client.serviceAccounts().inNamespace(ns).withName("shortlived").delete();
    Eventually.await(
        "the token of a deleted ServiceAccount is refused",
        () -> get(as, "/api/v1/namespaces/" + ns + "/pods").code() == 401);
  }

  @Test
  void reviews_answerForTheRequester() {
    String sa = "reviewer";
    grant(
        "reviewer",
        """
        - apiGroups: [""]
          resources: ["configmaps"]
          resourceNames: ["cm1"]
          verbs: ["get"]
        """);
    KubernetesClient as = account(sa);
    JsonNode allowed =
        accessReview(
            as,
            "{\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"get\",\"resource\":\"configmaps\",\"name\":\"cm1\"}}"
                .formatted(ns));
    assertSameJson(
        "allowed review",
        allowed.path("status"),
        ("{\"allowed\":true,\"reason\":\"RBAC: allowed by RoleBinding \\\"reviewer/%1$s\\\" of"
                + " Role \\\"reviewer\\\" to ServiceAccount \\\"reviewer/%1$s\\\"\"}")
            .formatted(ns));
    assertSameJson(
        "refused review",
        accessReview(
                as,
                "{\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"list\",\"resource\":\"configmaps\"}}"
                    .formatted(ns))
            .path("status"),
        "{\"allowed\":false}");
    assertSameJson(
        "admin review",
        accessReview(client, "{\"resourceAttributes\":{\"verb\":\"get\",\"resource\":\"pods\"}}")
            .path("status"),
        "{\"allowed\":true}");
    Raw neither =
        raw(
            as,
            "POST",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            "application/json",
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{}}",
            Map.of());
    assertThat(neither.code()).isEqualTo(422);
    assertThat(neither.body().path("message").asText())
        .isEqualTo(
            ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid value: null:"
                + " exactly one of nonResourceAttributes or resourceAttributes must be specified");

    JsonNode rules = rulesReview(as, ns).path("status");
    assertThat(rules.path("incomplete").asBoolean()).isFalse();
    assertThat(set(rules.path("resourceRules")))
        .containsExactlyInAnyOrderElementsOf(
            set(
                json(
                    """
                    [{"verbs":["create"],"apiGroups":["authorization.k8s.io"],
                      "resources":["selfsubjectaccessreviews","selfsubjectrulesreviews"]},
                     {"verbs":["create"],"apiGroups":["authentication.k8s.io"],
                      "resources":["selfsubjectreviews"]},
                     {"verbs":["get"],"apiGroups":[""],"resources":["configmaps"],
                      "resourceNames":["cm1"]}]""")));
    assertThat(set(rules.path("nonResourceRules")))
        .containsExactlyInAnyOrderElementsOf(
            set(
                json(
                    """
                    [{"verbs":["get"],"nonResourceURLs":["/api","/api/*","/apis","/apis/*",
                      "/healthz","/livez","/openapi","/openapi/*","/readyz","/version","/version/"]},
                     {"verbs":["get"],"nonResourceURLs":["/.well-known/openid-configuration",
                      "/.well-known/openid-configuration/","/openid/v1/jwks","/openid/v1/jwks/"]},
                     {"verbs":["get"],"nonResourceURLs":["/healthz","/livez","/readyz","/version",
                      "/version/"]}]""")));
    Raw noNamespace =
        raw(
            as,
            "POST",
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            "application/json",
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":{}}",
            Map.of());
    assertThat(noNamespace.code()).isEqualTo(400);
    assertThat(noNamespace.body().path("message").asText()).isEqualTo("no namespace on request");
  }

  private static JsonNode rulesReview(KubernetesClient as, String namespace) {
    Raw review =
        raw(
            as,
            "POST",
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            "application/json",
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\","
                + "\"spec\":{\"namespace\":\""
                + namespace
                + "\"}}",
            Map.of());
    assertThat(review.code()).as(String.valueOf(review.body())).isEqualTo(201);
    return review.body();
  }

  /** The {@code status.userInfo} of a SelfSubjectReview by {@code as}. */
  private static JsonNode selfReview(KubernetesClient as) {
    Raw review =
        raw(
            as,
            "POST",
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            "application/json",
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}",
            Map.of());
    assertThat(review.code()).as(String.valueOf(review.body())).isEqualTo(201);
    return review.body().path("status").path("userInfo");
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static Set<JsonNode> set(JsonNode array) {
    Set<JsonNode> values = new HashSet<>();
    array.forEach(values::add);
    return values;
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
