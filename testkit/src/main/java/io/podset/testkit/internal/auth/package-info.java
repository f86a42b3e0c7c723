/**
 * Authentication and authorization of the fake API server, as kube-apiserver does them with {@code
 * --authorization-mode=RBAC}: bearer tokens (the admin's, and ServiceAccount tokens from the
 * TokenRequest subresource), anonymous requests, impersonation headers, the privileged group {@code
 * system:masters}, and Kubernetes' RBAC authorizer over the Roles, ClusterRoles and bindings of the
 * server's own store, with the bootstrap ClusterRoles that matter to clients and the ClusterRole
 * aggregation controller. It also answers the review APIs (SelfSubjectAccessReview,
 * SelfSubjectRulesReview, SelfSubjectReview) and TokenRequest.
 *
 * <p>{@link io.podset.testkit.internal.auth.AuthFilter} is the request filter in front of the API
 * handler. Enforcement is opt-in: without it every request runs as the admin (AlwaysAllow), and
 * only the review and token endpoints are served.
 *
 * <p>Internal to the testkit, not API: its types and members change without notice.
 */
package io.podset.testkit.internal.auth;
