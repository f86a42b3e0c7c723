package io.podset.testkit.internal.auth;

import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.http.RequestNotes;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.ObjectWrites;
import java.util.List;
import java.util.Objects;

/**
 * Authenticates, impersonates and authorizes each request before the API handler sees it, as
 * kube-apiserver's filters do (401 for a bad token, 403 with the real message and Status), and
 * answers TokenRequest and the self-subject reviews itself.
 *
 * <p>Without enforcement the authorizer allows everything and unknown tokens act as the admin, so
 * servers started without RBAC behave as before; tokens, impersonation and reviews still work.
 *
 * <p>Thread-safe; never blocks (the RBAC index is in memory).
 */
public final class AuthFilter implements RequestFilter {

  private static final String APPLY = "application/apply-patch+yaml";

  private final boolean enforce;
  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final Authentication authentication;
  private final Authorizer authorizer;
  private final Impersonation impersonation;
  private final Reviews reviews;
  private final TokenRequests tokenRequests;
  // Null when not enforcing.
  private final EscalationGuard escalation;

  private AuthFilter(
      boolean enforce,
      ObjectStore store,
      ResourceRegistry registry,
      Authorizer authorizer,
      EscalationGuard escalation,
      ServiceAccountTokens tokens,
      Clock clock) {
    this.enforce = enforce;
    this.escalation = escalation;
    this.store = store;
    this.registry = registry;
    this.authentication = new Authentication(store, tokens);
    this.authorizer = authorizer;
    this.impersonation = new Impersonation(authorizer);
    this.reviews = new Reviews(authorizer, clock);
    this.tokenRequests =
        new TokenRequests(
            store, registry.find("", "v1", "serviceaccounts").orElseThrow(), tokens, clock);
  }

  /**
   * A filter for the server of {@code store}; with {@code enforce}, RBAC decides every request.
   * Registers the RBAC index and the ClusterRole aggregation controller as commit listeners of the
   * store ({@code writes} makes the controller's updates).
   */
  public static AuthFilter create(
      boolean enforce,
      ObjectStore store,
      ResourceRegistry registry,
      ObjectWrites writes,
      Clock clock) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(clock, "clock");
    RbacIndex index = new RbacIndex(store);
    store.addCommitListener(index);
    store.addCommitListener(new ClusterRoleAggregator(store, registry, writes));
    Authorizer authorizer = enforce ? new RbacAuthorizer(index) : Authorizer.alwaysAllow();
    return new AuthFilter(
        enforce,
        store,
        registry,
        authorizer,
        enforce ? new EscalationGuard(authorizer, index) : null,
        new ServiceAccountTokens(clock),
        clock);
  }

  /** Whether RBAC decides requests. */
  public boolean enforcing() {
    return enforce;
  }

  /** The bearer token of the admin (group {@code system:masters}). */
  public static String adminToken() {
    return Authentication.ADMIN_TOKEN;
  }

  /**
   * A token for an existing ServiceAccount, as the TokenRequest subresource issues it.
   *
   * @throws StatusError 404 when it does not exist
   */
  public String serviceAccountToken(String namespace, String name, long expirationSeconds) {
    return tokenRequests
        .issue(namespace, name, expirationSeconds, new TokenRequestSpec())
        .getStatus()
        .getToken();
  }

  @Override
  public boolean mayBlock() {
    return false;
  }

  @Override
  public ApiResult filter(ApiRequest request, Chain next) {
    try {
      Identity requester = authenticate(request);
      Identity user = impersonation.actAs(requester, request);
      RequestNotes.servedAs(user.name());
      Attributes attributes = Attributes.of(user, request);
      authorize(attributes);
      // Without enforcement every verb is allowed: the look-up of the object would decide nothing.
      if (enforce && createsByApply(attributes, request)) {
        authorize(attributes.withVerb("create"));
      }
      if (escalation != null && EscalationGuard.applies(attributes)) {
        ApiResponse refused = escalation.check(attributes, request, next);
        if (refused != null) {
          return refused;
        }
      }
      ApiResponse answered = answer(user, attributes, request);
      return answered != null ? answered : next.proceed(request);
    } catch (StatusError e) {
      return ApiResponse.error(e);
    } catch (Impersonation.Refused e) {
      return e.response();
    }
  }

  private Identity authenticate(ApiRequest request) {
    try {
      return authentication.authenticate(request);
    } catch (StatusError e) {
      if (enforce) {
        throw e;
      }
      return Identity.admin();
    }
  }

  private void authorize(Attributes attributes) {
    Decision decision = authorizer.authorize(attributes);
    if (!decision.allowed()) {
      throw Forbidden.of(attributes, decision.reason());
    }
  }

  /**
   * Whether a patch is a server-side apply of an absent object: kube-apiserver then authorizes
   * {@code create} as well (with the object's name).
   */
  private boolean createsByApply(Attributes attributes, ApiRequest request) {
    if (!attributes.resourceRequest()
        || !attributes.verb().equals("patch")
        || !attributes.subresource().isEmpty()
        || !APPLY.equals(request.contentType())) {
      return false;
    }
    ResourceType type =
        registry
            .find(attributes.apiGroup(), attributes.apiVersion(), attributes.resource())
            .orElse(null);
    if (type == null) {
      return false;
    }
    String key =
        ObjectStore.key(type.namespaced() ? attributes.namespace() : null, attributes.name());
    return store.get(type.storageKey(), key) == null;
  }

  /** The answer of the endpoints served here, or null for the API handler's. */
  private ApiResponse answer(Identity user, Attributes attributes, ApiRequest request) {
    if (!attributes.resourceRequest() || !attributes.apiVersion().equals("v1")) {
      return null;
    }
    String group = attributes.apiGroup();
    String resource = attributes.resource();
    if (group.isEmpty()
        && resource.equals("serviceaccounts")
        && attributes.subresource().equals("token")
        && !attributes.namespace().isEmpty()) {
      if (!request.method().equals("POST")) {
        throw methodNotAllowed();
      }
      return tokenRequests.create(attributes.namespace(), attributes.name(), request);
    }
    String namespace = attributes.namespace();
    boolean review =
        (group.equals(Reviews.AUTHORIZATION)
                && namespace.isEmpty()
                && List.of(
                        "selfsubjectaccessreviews",
                        "selfsubjectrulesreviews",
                        "subjectaccessreviews")
                    .contains(resource))
            || (group.equals(Reviews.AUTHORIZATION)
                && !namespace.isEmpty()
                && resource.equals("localsubjectaccessreviews"))
            || (group.equals(Reviews.AUTHENTICATION)
                && namespace.isEmpty()
                && List.of("selfsubjectreviews", "tokenreviews").contains(resource));
    if (!review || !attributes.name().isEmpty()) {
      return null;
    }
    if (!request.method().equals("POST")) {
      throw methodNotAllowed();
    }
    return switch (resource) {
      case "selfsubjectaccessreviews" -> reviews.accessReview(user, request);
      case "selfsubjectrulesreviews" -> reviews.rulesReview(user, request);
      case "subjectaccessreviews" -> reviews.subjectAccessReview(request, null);
      case "localsubjectaccessreviews" -> reviews.subjectAccessReview(request, namespace);
      case "tokenreviews" -> reviews.tokenReview(request, authentication);
      default -> reviews.selfReview(user, request);
    };
  }

  private static StatusError methodNotAllowed() {
    return StatusError.methodNotAllowed(
        "the server does not allow this method on the requested resource");
  }
}
