package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.write.RequestBodies;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The RBAC storage's escalation prevention: a user outside {@code system:masters} may create or
 * change a Role or ClusterRole only with rules it holds (or the {@code escalate} verb on it), a
 * ClusterRole with an {@code aggregationRule} only with every permission, and a binding only to a
 * role whose rules it holds (or with the {@code bind} verb on that role). The object a patch
 * produces is found with a dry run of the same request first.
 */
final class EscalationGuard {

  private static final List<PolicyRule> FULL_AUTHORITY = Authorizer.everything();

  private final Authorizer authorizer;
  private final RbacIndex index;

  EscalationGuard(Authorizer authorizer, RbacIndex index) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
    this.index = Objects.requireNonNull(index, "index");
  }

  /** Whether the request writes an RBAC role or binding and must be checked. */
  static boolean applies(Attributes request) {
    return request.resourceRequest()
        && request.apiGroup().equals(RbacIndex.GROUP)
        && request.subresource().isEmpty()
        && List.of("create", "update", "patch").contains(request.verb())
        && List.of("roles", "clusterroles", "rolebindings", "clusterrolebindings")
            .contains(request.resource())
        && !request.user().inGroup(Identity.MASTERS);
  }

  /**
   * Checks the object the request writes.
   *
   * @return null to go on, or the answer (the dry run's failure)
   * @throws StatusError 403 for an escalation, 404 for a binding to a missing role
   */
  ApiResponse check(Attributes request, ApiRequest http, RequestFilter.Chain next) {
    ObjectNode object;
    if (request.verb().equals("patch")) {
      Map<String, String> query = new HashMap<>(http.query());
      query.put("dryRun", "All");
      ApiResult dry =
          next.proceed(
              new ApiRequest(
                  http.method(), http.path(), query, http.headers(), http.body(), false));
      if (!(dry instanceof ApiResponse response) || response.status() >= 300) {
        return dry instanceof ApiResponse response ? response : null;
      }
      try {
        object = (ObjectNode) Json.parse(response.body());
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the dry run's object", e);
      }
    } else {
      object = RequestBodies.object(http);
    }
    String name =
        request.name().isEmpty() ? Objects.toString(Json.name(object), "") : request.name();
    String namespace = request.namespace();
    switch (request.resource()) {
      case "roles", "clusterroles" -> checkRole(request, object, name, namespace);
      default -> checkBinding(request, object, name, namespace);
    }
    return null;
  }

  private void checkRole(Attributes request, ObjectNode object, String name, String namespace) {
    if (allowed(request, "escalate", request.resource(), name, namespace)) {
      return;
    }
    boolean cluster = request.resource().equals("clusterroles");
    List<PolicyRule> rules =
        cluster
            ? Json.MAPPER.convertValue(object, ClusterRole.class).getRules()
            : Json.MAPPER.convertValue(object, Role.class).getRules();
    confirmNoEscalation(request, name, namespace, rules == null ? List.of() : rules);
    if (cluster && object.path("aggregationRule").isObject()) {
      Authorizer.Rules held = authorizer.rulesFor(request.user(), namespace);
      if (!Escalation.missing(held.rules(), FULL_AUTHORITY).isEmpty()) {
        throw forbidden(
            request, name, "must have cluster-admin privileges to use the aggregationRule");
      }
    }
  }

  private void checkBinding(Attributes request, ObjectNode object, String name, String namespace) {
    RoleRef ref = Json.MAPPER.convertValue(object.path("roleRef"), RoleRef.class);
    if (ref == null || ref.getName() == null) {
      return;
    }
    String roleResource = "Role".equals(ref.getKind()) ? "roles" : "clusterroles";
    if (allowed(request, "bind", roleResource, ref.getName(), namespace)) {
      return;
    }
    RbacIndex.Snapshot rbac = index.snapshot();
    List<PolicyRule> rules;
    if ("Role".equals(ref.getKind())) {
      Role role = namespace.isEmpty() ? null : rbac.role(namespace, ref.getName());
      rules = role == null ? null : role.getRules();
      if (role == null) {
        throw missingRole(request, ref.getName());
      }
    } else {
      ClusterRole role = rbac.clusterRole(ref.getName());
      if (role == null) {
        throw missingRole(request, ref.getName());
      }
      rules = role.getRules();
    }
    confirmNoEscalation(request, name, namespace, rules == null ? List.of() : rules);
  }

  private boolean allowed(
      Attributes request, String verb, String resource, String name, String namespace) {
    return authorizer
        .authorize(
            Attributes.resource(
                request.user(), verb, RbacIndex.GROUP, "", namespace, resource, "", name))
        .allowed();
  }

  private void confirmNoEscalation(
      Attributes request, String name, String namespace, List<PolicyRule> rules) {
    Authorizer.Rules held = authorizer.rulesFor(request.user(), namespace);
    List<String> missing = Escalation.missing(held.rules(), rules);
    if (missing.isEmpty()) {
      return;
    }
    String message =
        "user %s (groups=%s) is attempting to grant RBAC permissions not currently held:\n%s"
            .formatted(
                RbacAuthorizer.quote(request.user().name()),
                Escalation.quoted(request.user().groups()),
                String.join("\n", missing));
    if (!held.errors().isEmpty()) {
      message += "; resolution errors: [" + RbacAuthorizer.aggregate(held.errors()) + "]";
    }
    throw forbidden(request, name, message);
  }

  private static StatusError forbidden(Attributes request, String name, String why) {
    return new StatusError(
        403,
        "Forbidden",
        request.resource()
            + "."
            + RbacIndex.GROUP
            + " "
            + RbacAuthorizer.quote(name)
            + " is forbidden: "
            + why,
        StatusError.details(name, RbacIndex.GROUP, request.resource()));
  }

  /** As kube-apiserver: the binding's resource with the role's name. */
  private static StatusError missingRole(Attributes request, String role) {
    return new StatusError(
        404,
        "NotFound",
        request.resource()
            + "."
            + RbacIndex.GROUP
            + " "
            + RbacAuthorizer.quote(role)
            + " not found",
        StatusError.details(role, RbacIndex.GROUP, request.resource()));
  }
}
