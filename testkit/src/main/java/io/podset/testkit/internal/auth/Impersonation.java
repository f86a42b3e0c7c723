package io.podset.testkit.internal.auth;

import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.StatusError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code Impersonate-User}, {@code Impersonate-Group}, {@code Impersonate-Uid} and {@code
 * Impersonate-Extra-*} headers, as kube-apiserver's impersonation filter: the requester needs the
 * {@code impersonate} verb on {@code users} (or the {@code serviceaccounts} of the namespace),
 * {@code groups}, {@code uids} and {@code userextras/<key>} (authentication.k8s.io) for each value;
 * the request then runs as the impersonated user, with {@code system:authenticated} added (or
 * {@code system:unauthenticated} for {@code system:anonymous}) and, for a ServiceAccount without
 * groups asked for, the ServiceAccount's groups.
 */
final class Impersonation {

  private static final String EXTRA = "impersonate-extra-";

  private final Authorizer authorizer;

  Impersonation(Authorizer authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
  }

  /** Thrown for requests kube-apiserver answers with a plain-text 500. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ApiResponse response;

    Refused(ApiResponse response) {
      super("impersonation refused");
      this.response = response;
    }

    ApiResponse response() {
      return response;
    }
  }

  /**
   * Whom the request acts as: {@code requester} when it impersonates nobody.
   *
   * @throws StatusError 403 when the requester may not impersonate what it asks for
   * @throws Refused for groups, uid or extras without a user
   */
  Identity actAs(Identity requester, ApiRequest request) {
    String user = request.header("impersonate-user");
    List<String> groups = values(request.header("impersonate-group"));
    String uid = request.header("impersonate-uid");
    // Filled only when the request has such headers: most requests impersonate nobody.
    Map<String, List<String>> extra = Map.of();
    for (Map.Entry<String, String> header : request.headers().entrySet()) {
      if (header.getKey().startsWith(EXTRA)) {
        if (extra.isEmpty()) {
          extra = new LinkedHashMap<>();
        }
        extra.put(header.getKey().substring(EXTRA.length()), values(header.getValue()));
      }
    }
    if (user == null) {
      if (groups.isEmpty() && uid == null && extra.isEmpty()) {
        return requester;
      }
      List<String> asked = new ArrayList<>();
      groups.forEach(g -> asked.add("{Group  " + g + "    }"));
      throw new Refused(
          new ApiResponse(
              500,
              "text/plain; charset=utf-8",
              ("Internal Server Error: \""
                      + request.path()
                      + "\": requested "
                      + asked
                      + " without impersonating a user")
                  .replace(", ", " ")
                  .getBytes(StandardCharsets.UTF_8),
              Map.of()));
    }
    String[] serviceAccount = Identity.splitServiceAccount(user);
    if (serviceAccount != null) {
      check(
          Attributes.resource(
              requester,
              "impersonate",
              "",
              "",
              serviceAccount[0],
              "serviceaccounts",
              "",
              serviceAccount[1]));
    } else {
      check(Attributes.resource(requester, "impersonate", "", "", "", "users", "", user));
    }
    for (String group : groups) {
      check(Attributes.resource(requester, "impersonate", "", "", "", "groups", "", group));
    }
    if (uid != null) {
      check(
          Attributes.resource(
              requester, "impersonate", "authentication.k8s.io", "", "", "uids", "", uid));
    }
    extra.forEach(
        (key, values) -> {
          for (String value : values) {
            check(
                Attributes.resource(
                    requester,
                    "impersonate",
                    "authentication.k8s.io",
                    "",
                    "",
                    "userextras",
                    key,
                    value));
          }
        });
    List<String> actingGroups = new ArrayList<>(groups);
    if (serviceAccount != null && groups.isEmpty()) {
      actingGroups.addAll(Identity.serviceAccountGroups(serviceAccount[0]).subList(0, 2));
    }
    if (!user.equals(Identity.ANONYMOUS)) {
      if (!actingGroups.contains(Identity.AUTHENTICATED)
          && !actingGroups.contains(Identity.UNAUTHENTICATED)) {
        actingGroups.add(Identity.AUTHENTICATED);
      }
    } else if (!actingGroups.contains(Identity.UNAUTHENTICATED)) {
      actingGroups.add(Identity.UNAUTHENTICATED);
    }
    return new Identity(user, uid == null ? "" : uid, actingGroups, extra);
  }

  private void check(Attributes attributes) {
    Decision decision = authorizer.authorize(attributes);
    if (!decision.allowed()) {
      throw Forbidden.of(attributes, decision.reason());
    }
  }

  /** The values of a header the front end joined one per line (repeated headers). */
  private static List<String> values(String header) {
    if (header == null) {
      return List.of();
    }
    return List.of(header.split("\n"));
  }
}
