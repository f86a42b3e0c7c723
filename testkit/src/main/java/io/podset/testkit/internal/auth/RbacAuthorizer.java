package io.podset.testkit.internal.auth;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube-apiserver's authorizer chain with {@code --authorization-mode=RBAC}: members of {@code
 * system:masters} are allowed everything (with no reason), then Kubernetes' RBAC authorizer visits
 * the ClusterRoleBindings and, for a namespaced request, the RoleBindings of its namespace whose
 * subjects name the user, one of its groups or its ServiceAccount, and allows the request when a
 * rule of the referenced role allows it. A binding to a missing role adds its error to the reason
 * of a denial ({@code RBAC: clusterrole.rbac.authorization.k8s.io "x" not found}).
 */
final class RbacAuthorizer implements Authorizer {

  private final RbacIndex index;

  RbacAuthorizer(RbacIndex index) {
    this.index = Objects.requireNonNull(index, "index");
  }

  /** Receives each rule that applies, with the binding that grants it; false stops the visit. */
  @FunctionalInterface
  private interface Visitor {
    boolean visit(String source, PolicyRule rule);
  }

  @Override
  public Decision authorize(Attributes request) {
    if (request.user().inGroup(Identity.MASTERS)) {
      return Decision.allow("");
    }
    String[] reason = {null};
    List<String> errors =
        visit(
            request.user(),
            request.namespace(),
            (source, rule) -> {
              if (PolicyRules.allows(request, rule)) {
                reason[0] = "RBAC: allowed by " + source;
                return false;
              }
              return true;
            });
    if (reason[0] != null) {
      return Decision.allow(reason[0]);
    }
    return Decision.deny(errors.isEmpty() ? "" : "RBAC: " + aggregate(errors));
  }

  @Override
  public Rules rulesFor(Identity user, String namespace) {
    List<PolicyRule> rules = new ArrayList<>();
    List<String> errors =
        visit(
            user,
            namespace,
            (source, rule) -> {
              rules.add(rule);
              return true;
            });
    return new Rules(rules, errors);
  }

  /** Go's {@code utilerrors.Aggregate} message. */
  static String aggregate(List<String> errors) {
    return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
  }

  /** Visits the rules granted to {@code user}; returns the errors met. */
  private List<String> visit(Identity user, String namespace, Visitor visitor) {
    RbacIndex.Snapshot rbac = index.snapshot();
    List<String> errors = new ArrayList<>();
    for (ClusterRoleBinding binding : rbac.clusterRoleBindings()) {
      Subject subject = appliesTo(user, binding.getSubjects(), "");
      if (subject == null) {
        continue;
      }
      RoleRef ref = binding.getRoleRef();
      List<PolicyRule> rules = rules(rbac, ref, "", errors);
      String source =
          "ClusterRoleBinding %s of %s %s to %s"
              .formatted(
                  quote(binding.getMetadata().getName()),
                  ref.getKind(),
                  quote(ref.getName()),
                  describe(subject, ""));
      for (PolicyRule rule : rules) {
        if (!visitor.visit(source, rule)) {
          return errors;
        }
      }
    }
    if (namespace.isEmpty()) {
      return errors;
    }
    for (RoleBinding binding : rbac.roleBindingsIn(namespace)) {
      Subject subject = appliesTo(user, binding.getSubjects(), namespace);
      if (subject == null) {
        continue;
      }
      RoleRef ref = binding.getRoleRef();
      List<PolicyRule> rules = rules(rbac, ref, namespace, errors);
      String source =
          "RoleBinding %s of %s %s to %s"
              .formatted(
                  quote(binding.getMetadata().getName() + "/" + namespace),
                  ref.getKind(),
                  quote(ref.getName()),
                  describe(subject, namespace));
      for (PolicyRule rule : rules) {
        if (!visitor.visit(source, rule)) {
          return errors;
        }
      }
    }
    return errors;
  }

  /** The rules of the role a binding references, or none (and an error) when it is missing. */
  private static List<PolicyRule> rules(
      RbacIndex.Snapshot rbac, RoleRef ref, String namespace, List<String> errors) {
    String kind = ref == null ? "" : Objects.toString(ref.getKind(), "");
    String name = ref == null ? "" : Objects.toString(ref.getName(), "");
    switch (kind) {
      case "ClusterRole" -> {
        ClusterRole role = rbac.clusterRole(name);
        if (role == null) {
          errors.add("clusterrole.rbac.authorization.k8s.io " + quote(name) + " not found");
          return List.of();
        }
        return role.getRules() == null ? List.of() : role.getRules();
      }
      case "Role" -> {
        Role role = namespace.isEmpty() ? null : rbac.role(namespace, name);
        if (role == null) {
          errors.add("role.rbac.authorization.k8s.io " + quote(name) + " not found");
          return List.of();
        }
        return role.getRules() == null ? List.of() : role.getRules();
      }
      default -> {
        errors.add("unsupported role reference kind: " + quote(kind));
        return List.of();
      }
    }
  }

  /** The first subject naming {@code user}, as Kubernetes' {@code appliesTo}, or null. */
  private static Subject appliesTo(Identity user, List<Subject> subjects, String namespace) {
    if (subjects == null) {
      return null;
    }
    for (Subject subject : subjects) {
      if (appliesTo(user, subject, namespace)) {
        return subject;
      }
    }
    return null;
  }

  private static boolean appliesTo(Identity user, Subject subject, String namespace) {
    String name = Objects.toString(subject.getName(), "");
    switch (Objects.toString(subject.getKind(), "")) {
      case "User" -> {
        return user.name().equals(name);
      }
      case "Group" -> {
        return user.inGroup(name);
      }
      case "ServiceAccount" -> {
        String saNamespace =
            subject.getNamespace() == null || subject.getNamespace().isEmpty()
                ? namespace
                : subject.getNamespace();
        return !saNamespace.isEmpty()
            && user.name().equals(Identity.serviceAccountName(saNamespace, name));
      }
      default -> {
        return false;
      }
    }
  }

  private static String describe(Subject subject, String bindingNamespace) {
    if ("ServiceAccount".equals(subject.getKind())) {
      String ns =
          subject.getNamespace() == null || subject.getNamespace().isEmpty()
              ? bindingNamespace
              : subject.getNamespace();
      return subject.getKind() + " " + quote(subject.getName() + "/" + ns);
    }
    return subject.getKind() + " " + quote(subject.getName());
  }

  /** Go's {@code %q} for the names Kubernetes allows (no characters that need escaping). */
  static String quote(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
