package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.testkit.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What a deploy/rbac directory grants one ServiceAccount, and what a request needs. */
final class Rbac {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  // Non-resource URLs every authenticated user may GET (the system:discovery ClusterRole).
  private static final Pattern DISCOVERY = Pattern.compile("/(api|apis)(/.*)?|/version/?");

  private final List<Permission> granted;

  private Rbac(List<Permission> granted) {
    this.granted = List.copyOf(granted);
  }

  List<Permission> granted() {
    return granted;
  }

  boolean allows(Permission needed) {
    return granted.stream().anyMatch(g -> g.allows(needed));
  }

  static boolean isDiscovery(RequestRecord r) {
    return r.method().equals("GET") && DISCOVERY.matcher(r.path()).matches();
  }

  /** One permission: a verb on a resource (with its subresource) of a group, in a namespace. */
  record Permission(String verb, String group, String resource, String namespace)
      implements Comparable<Permission> {

    /**
     * What a request needs: the verb of its method, and create as well for a patch that created the
     * object (server-side apply of a new object: the API server checks both).
     */
    static List<Permission> of(RequestRecord r) {
      boolean watch = r.query().matches("(.*&)?watch=(true|1)(&.*)?");
      String verb =
          switch (r.method()) {
            case "GET" -> watch ? "watch" : r.name() == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> r.name() == null ? "deletecollection" : "delete";
            default -> throw new AssertionError("unexpected method in " + r);
          };
      String resource =
          r.subresource() == null ? r.resource() : r.resource() + "/" + r.subresource();
      String group = r.group() == null ? "" : r.group();
      Permission p = new Permission(verb, group, resource, r.namespace());
      return verb.equals("patch") && r.status() == 201
          ? List.of(p, new Permission("create", group, resource, r.namespace()))
          : List.of(p);
    }

    /** Whether this grant (namespace null: every namespace) covers {@code needed}. */
    boolean allows(Permission needed) {
      return verb.equals(needed.verb)
          && group.equals(needed.group)
          && resource.equals(needed.resource)
          && (namespace == null || namespace.equals(needed.namespace));
    }

    @Override
    public int compareTo(Permission o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      return verb
          + " "
          + (group.isEmpty() ? "" : group + "/")
          + resource
          + (namespace == null ? "" : " in " + namespace);
    }
  }

  /** The rules bound to {@code serviceAccount} in {@code namespace} by the files in {@code dir}. */
  static Rbac read(Path dir, String serviceAccount, String namespace) {
    Map<String, List<PolicyRule>> clusterRoles = new HashMap<>();
    Map<String, List<PolicyRule>> roles = new HashMap<>();
    List<HasMetadata> bindings = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        HasMetadata object = SERIALIZATION.unmarshal(Files.readString(file));
        if (object instanceof ClusterRole r) {
          clusterRoles.put(r.getMetadata().getName(), r.getRules());
        } else if (object instanceof Role r) {
          roles.put(r.getMetadata().getNamespace() + "/" + r.getMetadata().getName(), r.getRules());
        } else if (object instanceof ClusterRoleBinding || object instanceof RoleBinding) {
          bindings.add(object);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Permission> result = new ArrayList<>();
    for (HasMetadata binding : bindings) {
      List<Subject> subjects;
      RoleRef ref;
      String scope;
      if (binding instanceof ClusterRoleBinding b) {
        subjects = b.getSubjects();
        ref = b.getRoleRef();
        scope = null;
      } else {
        RoleBinding b = (RoleBinding) binding;
        subjects = b.getSubjects();
        ref = b.getRoleRef();
        scope = b.getMetadata().getNamespace();
      }
      boolean ours =
          subjects.stream()
              .anyMatch(
                  s ->
                      s.getKind().equals("ServiceAccount")
                          && s.getName().equals(serviceAccount)
                          && namespace.equals(s.getNamespace()));
      if (!ours) {
        continue;
      }
      List<PolicyRule> rules =
          ref.getKind().equals("ClusterRole")
              ? clusterRoles.get(ref.getName())
              : roles.get(scope + "/" + ref.getName());
      assertThat(rules)
          .as("the role %s bound by %s", ref.getName(), binding.getMetadata().getName())
          .isNotNull();
      for (PolicyRule rule : rules) {
        for (String group : rule.getApiGroups()) {
          for (String resource : rule.getResources()) {
            for (String verb : rule.getVerbs()) {
              assertThat(List.of(group, resource, verb))
                  .as("wildcards in %s", dir)
                  .doesNotContain("*");
              result.add(new Permission(verb, group, resource, scope));
            }
          }
        }
      }
    }
    return new Rbac(result);
  }
}
