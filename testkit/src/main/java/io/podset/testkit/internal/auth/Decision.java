package io.podset.testkit.internal.auth;

/**
 * An authorizer's answer: whether the request is allowed, and the reason Kubernetes gives (empty
 * when none), such as {@code RBAC: allowed by RoleBinding "rb/ns" of Role "r" to User "u"}.
 */
record Decision(boolean allowed, String reason) {

  static Decision allow(String reason) {
    return new Decision(true, reason);
  }

  static Decision deny(String reason) {
    return new Decision(false, reason);
  }
}
