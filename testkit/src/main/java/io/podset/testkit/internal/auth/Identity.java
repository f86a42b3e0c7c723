package io.podset.testkit.internal.auth;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who sends a request, as Kubernetes' {@code user.Info}: the user name, its uid (empty when none),
 * its groups in order and its extra values.
 */
public record Identity(
    String name, String uid, List<String> groups, Map<String, List<String>> extra) {

  static final String MASTERS = "system:masters";
  static final String AUTHENTICATED = "system:authenticated";
  static final String UNAUTHENTICATED = "system:unauthenticated";
  static final String ANONYMOUS = "system:anonymous";
  static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

  /** The name of the admin the fake's own kubeconfig and clients authenticate as. */
  public static final String ADMIN = "fake-admin";

  public Identity {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    groups = List.copyOf(groups);
    extra = Map.copyOf(extra);
  }

  static Identity admin() {
    return new Identity(ADMIN, ADMIN, List.of(MASTERS, AUTHENTICATED), Map.of());
  }

  static Identity anonymous() {
    return new Identity(ANONYMOUS, "", List.of(UNAUTHENTICATED), Map.of());
  }

  /** The user of a ServiceAccount's token, with the groups the token authenticator gives it. */
  static Identity serviceAccount(String namespace, String name, String uid) {
    return new Identity(
        serviceAccountName(namespace, name), uid, serviceAccountGroups(namespace), Map.of());
  }

  static String serviceAccountName(String namespace, String name) {
    return SERVICE_ACCOUNT_PREFIX + namespace + ":" + name;
  }

  static List<String> serviceAccountGroups(String namespace) {
    return List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, AUTHENTICATED);
  }

  /**
   * The namespace and name of a ServiceAccount user name ({@code system:serviceaccount:ns:name}),
   * or null when {@code user} is not one.
   */
  static String[] splitServiceAccount(String user) {
    if (!user.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      return null;
    }
    String[] parts = user.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return null;
    }
    return parts;
  }

  boolean inGroup(String group) {
    return groups.contains(group);
  }
}
