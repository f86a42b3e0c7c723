package io.podset.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What the RBAC manifests of a directory (an operator's {@code deploy/rbac}) grant one
 * ServiceAccount, held against the requests it made, as recorded by a {@link RequestJournal}: did
 * the operator need anything the manifests do not grant, and do they grant anything it never used?
 * {@link FakeApiServer.Builder#enforceRbac()} makes the fake refuse what the roles in its store do
 * not allow; this reads the files you deploy instead, without installing them, and also finds the
 * grants nothing used, which enforcement cannot tell.
 *
 * <pre>{@code
 * RbacGrants grants = RbacGrants.read(Path.of("deploy/rbac"), "my-operator", "my-system");
 * RbacGrants.Check check = grants.check(server.journal().records(RequestMatcher.any()
 *     .userAgentContaining("my-operator/")));
 * assertThat(check.refused()).isEmpty();
 * assertThat(check.unused()).isEmpty();
 * }</pre>
 *
 * <p>Read: Roles, ClusterRoles, RoleBindings and ClusterRoleBindings (one object or a {@code List}
 * per file, {@code .yaml}, {@code .yml} or {@code .json}), the rules' API groups, resources (with
 * subresources, {@code pods/status}) and verbs, {@code *} in any of them. Not read: {@code
 * resourceNames} (a rule naming objects counts as granting the whole resource), aggregated
 * ClusterRoles, groups as subjects, the default roles of a cluster other than discovery (every
 * request to {@code /api}, {@code /apis} and {@code /version} with GET is allowed, as {@code
 * system:discovery} allows it).
 */
public final class RbacGrants {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final Pattern DISCOVERY = Pattern.compile("/(api|apis)(/.*)?|/version/?");

  private final List<Permission> granted;

  private RbacGrants(List<Permission> granted) {
    this.granted = List.copyOf(granted);
  }

  /**
   * One permission: a verb on a resource (a subresource as {@code pods/status}) of an API group
   * ({@code ""} for core), in a namespace.
   *
   * @param verb the verb ({@code get}, {@code list}, {@code watch}, {@code create}, ...), or {@code
   *     *}
   * @param group the API group, {@code ""} for core, or {@code *}
   * @param resource the resource with its subresource, or {@code *}
   * @param namespace the namespace; null for every namespace (a ClusterRoleBinding's grant, a
   *     request to a cluster-scoped resource or across namespaces)
   */
  public record Permission(String verb, String group, String resource, @Nullable String namespace)
      implements Comparable<Permission> {

    /** Checks the required components. */
    public Permission {
      Objects.requireNonNull(verb, "verb");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(resource, "resource");
    }

    /**
     * What a request to a resource needs: its verb, and {@code create} as well for a patch that
     * created the object (server-side apply of a new object: the API server checks both).
     *
     * @throws IllegalArgumentException for a request that is not to a resource (discovery, say)
     */
    public static List<Permission> neededBy(RequestRecord request) {
      if (request.resource() == null) {
        throw new IllegalArgumentException("not a request to a resource: " + request);
      }
      String resource =
          request.subresource() == null
              ? request.resource()
              : request.resource() + "/" + request.subresource();
      String group = request.group() == null ? "" : request.group();
      Permission needed = new Permission(request.verb(), group, resource, request.namespace());
      return request.verb().equals("patch") && request.status() == 201
          ? List.of(needed, new Permission("create", group, resource, request.namespace()))
          : List.of(needed);
    }

    /** Whether this grant covers {@code needed}: same verb, group and resource, or {@code *}. */
    public boolean allows(Permission needed) {
      return matches(verb, needed.verb)
          && matches(group, needed.group)
          && matches(resource, needed.resource)
          && (namespace == null || namespace.equals(needed.namespace));
    }

    private static boolean matches(String granted, String needed) {
      return granted.equals("*") || granted.equals(needed);
    }

    @Override
    public int compareTo(Permission o) {
      return toString().compareTo(o.toString());
    }

    /** {@code patch apps/deployments in default}. */
    @Override
    public String toString() {
      return verb
          + " "
          + (group.isEmpty() ? "" : group + "/")
          + resource
          + (namespace == null ? "" : " in " + namespace);
    }
  }

  /**
   * The result of {@link #check}.
   *
   * @param used every permission the requests needed
   * @param refused the requests the grants do not allow, each with what it needed
   * @param unused the grants no request used
   */
  public record Check(Set<Permission> used, List<String> refused, List<Permission> unused) {

    /** Copies the lists. */
    public Check {
      used = Set.copyOf(used);
      refused = List.copyOf(refused);
      unused = List.copyOf(unused);
    }
  }

  /**
   * The permissions the manifests in {@code dir} grant {@code serviceAccount} of {@code namespace}
   * through their bindings.
   *
   * @throws IllegalArgumentException when a binding of the ServiceAccount names a role that is not
   *     in {@code dir}, or a file is not a Kubernetes object
   * @throws UncheckedIOException when {@code dir} cannot be read
   */
  public static RbacGrants read(Path dir, String serviceAccount, String namespace) {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(serviceAccount, "serviceAccount");
    Objects.requireNonNull(namespace, "namespace");
    Map<String, List<PolicyRule>> rolesByRef = new HashMap<>();
    List<HasMetadata> bindings = new ArrayList<>();
    for (HasMetadata object : objects(dir)) {
      if (object instanceof ClusterRole r) {
        rolesByRef.put(roleKey("ClusterRole", null, r.getMetadata().getName()), r.getRules());
      } else if (object instanceof Role r) {
        rolesByRef.put(
            roleKey("Role", r.getMetadata().getNamespace(), r.getMetadata().getName()),
            r.getRules());
      } else if (object instanceof ClusterRoleBinding || object instanceof RoleBinding) {
        bindings.add(object);
      }
    }
    List<Permission> granted = new ArrayList<>();
    for (HasMetadata binding : bindings) {
      boolean cluster = binding instanceof ClusterRoleBinding;
      List<Subject> subjects =
          cluster
              ? ((ClusterRoleBinding) binding).getSubjects()
              : ((RoleBinding) binding).getSubjects();
      RoleRef ref =
          cluster
              ? ((ClusterRoleBinding) binding).getRoleRef()
              : ((RoleBinding) binding).getRoleRef();
      @Nullable String scope = cluster ? null : binding.getMetadata().getNamespace();
      if (subjects == null
          || subjects.stream().noneMatch(s -> isServiceAccount(s, serviceAccount, namespace))) {
        continue;
      }
      String key =
          roleKey(ref.getKind(), ref.getKind().equals("ClusterRole") ? null : scope, ref.getName());
      List<PolicyRule> rules = rolesByRef.get(key);
      if (rules == null) {
        throw new IllegalArgumentException(
            "the "
                + ref.getKind()
                + " "
                + ref.getName()
                + " bound by "
                + binding.getMetadata().getName()
                + " is not in "
                + dir);
      }
      for (PolicyRule rule : rules) {
        for (String group : rule.getApiGroups()) {
          for (String resource : rule.getResources()) {
            for (String verb : rule.getVerbs()) {
              granted.add(new Permission(verb, group, resource, scope));
            }
          }
        }
      }
    }
    return new RbacGrants(granted);
  }

  /** Every permission granted, one per (verb, group, resource) of each bound rule. */
  public List<Permission> granted() {
    return granted;
  }

  /** Whether a grant covers {@code needed}. */
  public boolean allows(Permission needed) {
    return granted.stream().anyMatch(g -> g.allows(needed));
  }

  /**
   * Holds {@code requests} against the grants: each request to a resource needs its permissions
   * ({@link Permission#neededBy}); any other request must be a discovery GET.
   */
  public Check check(List<RequestRecord> requests) {
    Set<Permission> used = new TreeSet<>();
    List<String> refused = new ArrayList<>();
    for (RequestRecord r : requests) {
      if (r.resource() == null) {
        if (!r.method().equals("GET") || !DISCOVERY.matcher(r.path()).matches()) {
          refused.add(r + " (not a discovery URL)");
        }
        continue;
      }
      for (Permission needed : Permission.neededBy(r)) {
        used.add(needed);
        if (!allows(needed)) {
          refused.add(r + " needs " + needed);
        }
      }
    }
    List<Permission> unused =
        granted.stream().filter(g -> used.stream().noneMatch(g::allows)).toList();
    return new Check(used, refused, unused);
  }

  private static boolean isServiceAccount(Subject s, String name, String namespace) {
    return "ServiceAccount".equals(s.getKind())
        && name.equals(s.getName())
        && namespace.equals(s.getNamespace());
  }

  private static String roleKey(String kind, @Nullable String namespace, String name) {
    return kind + ":" + (namespace == null ? "" : namespace) + "/" + name;
  }

  private static List<HasMetadata> objects(Path dir) {
    List<HasMetadata> objects = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (!(name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json"))) {
          continue;
        }
        Object parsed = SERIALIZATION.unmarshal(Files.readString(file));
        if (parsed instanceof KubernetesList list) {
          objects.addAll(list.getItems());
        } else if (parsed instanceof HasMetadata object) {
          objects.add(object);
        } else if (parsed instanceof List<?> many) {
          many.stream()
              .filter(HasMetadata.class::isInstance)
              .map(HasMetadata.class::cast)
              .forEach(objects::add);
        } else {
          throw new IllegalArgumentException(file + " holds no Kubernetes object");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return objects;
  }
}
