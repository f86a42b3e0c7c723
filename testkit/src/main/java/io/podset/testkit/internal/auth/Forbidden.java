package io.podset.testkit.internal.auth;

import io.podset.testkit.internal.resource.StatusError;

/** The 403 of a refused request, with the message and details kube-apiserver writes. */
final class Forbidden {

  private Forbidden() {}

  /**
   * {@code pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" in the
   * namespace "ns"}, followed by {@code : reason} when the authorizer gave one; non-resource
   * requests read {@code forbidden: User "u" cannot get path "/metrics"}.
   */
  static StatusError of(Attributes request, String reason) {
    String user = RbacAuthorizer.quote(request.user().name());
    String what;
    if (!request.resourceRequest()) {
      what =
          "User %s cannot %s path %s"
              .formatted(user, request.verb(), RbacAuthorizer.quote(request.path()));
    } else if (!request.namespace().isEmpty()) {
      what =
          "User %s cannot %s resource %s in API group %s in the namespace %s"
              .formatted(
                  user,
                  request.verb(),
                  RbacAuthorizer.quote(request.combinedResource()),
                  RbacAuthorizer.quote(request.apiGroup()),
                  RbacAuthorizer.quote(request.namespace()));
    } else {
      what =
          "User %s cannot %s resource %s in API group %s at the cluster scope"
              .formatted(
                  user,
                  request.verb(),
                  RbacAuthorizer.quote(request.combinedResource()),
                  RbacAuthorizer.quote(request.apiGroup()));
    }
    if (!reason.isEmpty()) {
      what = what + ": " + reason;
    }
    String resource = request.resource();
    String group = request.apiGroup();
    String name = request.name();
    String message;
    if (resource.isEmpty() && group.isEmpty()) {
      message = "forbidden: " + what;
    } else {
      String qualified = group.isEmpty() ? resource : resource + "." + group;
      message =
          name.isEmpty()
              ? qualified + " is forbidden: " + what
              : qualified + " " + RbacAuthorizer.quote(name) + " is forbidden: " + what;
    }
    return new StatusError(
        403,
        "Forbidden",
        message,
        StatusError.details(
            name.isEmpty() ? null : name, group, resource.isEmpty() ? null : resource));
  }
}
