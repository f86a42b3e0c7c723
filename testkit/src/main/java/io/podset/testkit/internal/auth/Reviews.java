package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.NonResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.NonResourceRule;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRule;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewSpec;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewSpec;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectRulesReviewStatus;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.write.RequestBodies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The review APIs: those every authenticated user may create (the bootstrap ClusterRole {@code
 * system:basic-user}), SelfSubjectAccessReview and SelfSubjectRulesReview (authorization.k8s.io/v1)
 * answered by the server's authorizer for the requester and SelfSubjectReview
 * (authentication.k8s.io/v1) which tells the requester who it is; and those of delegated
 * authentication and authorization (a metrics endpoint's filter, a webhook): SubjectAccessReview,
 * LocalSubjectAccessReview and TokenReview. Nothing is stored.
 */
final class Reviews {

  static final String AUTHORIZATION = "authorization.k8s.io";
  static final String AUTHENTICATION = "authentication.k8s.io";

  private final Authorizer authorizer;
  private final Clock clock;

  Reviews(Authorizer authorizer, Clock clock) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  ApiResponse accessReview(Identity user, ApiRequest request) {
    SelfSubjectAccessReview review = parse(request, SelfSubjectAccessReview.class);
    review.setStatus(
        decide(
            user,
            review.getSpec() == null ? null : review.getSpec().getResourceAttributes(),
            review.getSpec() == null ? null : review.getSpec().getNonResourceAttributes()));
    review.setMetadata(new ObjectMeta());
    return created(review);
  }

  /**
   * A SubjectAccessReview (cluster-wide) or, with {@code namespace}, a LocalSubjectAccessReview:
   * the authorizer's answer for the user and groups of the spec (taken as given: no groups are
   * added).
   */
  ApiResponse subjectAccessReview(ApiRequest request, String namespace) {
    SubjectAccessReview review = parse(request, SubjectAccessReview.class);
    SubjectAccessReviewSpec spec =
        review.getSpec() == null ? new SubjectAccessReviewSpec() : review.getSpec();
    ResourceAttributes resource = spec.getResourceAttributes();
    NonResourceAttributes nonResource = spec.getNonResourceAttributes();
    requireOneOf(resource, nonResource);
    if ((spec.getUser() == null || spec.getUser().isEmpty())
        && (spec.getGroups() == null || spec.getGroups().isEmpty())) {
      throw Invalid.of(
          AUTHORIZATION,
          "",
          "spec.user",
          "Invalid value: \"\": at least one of user or group must be specified");
    }
    if (namespace != null) {
      String asked = resource == null ? "" : text(resource.getNamespace());
      if (resource == null || !asked.equals(namespace)) {
        throw Invalid.of(
            AUTHORIZATION,
            "",
            "spec.resourceAttributes.namespace",
            "Invalid value: \"" + asked + "\": must match metadata.namespace");
      }
    }
    Identity subject =
        new Identity(
            text(spec.getUser()),
            text(spec.getUid()),
            spec.getGroups() == null ? List.of() : spec.getGroups(),
            spec.getExtra() == null ? Map.of() : spec.getExtra());
    SubjectAccessReviewStatus status = decide(subject, resource, nonResource);
    ObjectNode answer = Json.toNode(review);
    ObjectNode meta = answer.putObject("metadata");
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    answer.set("status", Json.toNode(status));
    return ApiResponse.json(201, answer);
  }

  private SubjectAccessReviewStatus decide(
      Identity user, ResourceAttributes resource, NonResourceAttributes nonResource) {
    requireOneOf(resource, nonResource);
    Attributes asked =
        resource != null
            ? Attributes.resource(
                user,
                text(resource.getVerb()),
                text(resource.getGroup()),
                text(resource.getVersion()),
                text(resource.getNamespace()),
                text(resource.getResource()),
                text(resource.getSubresource()),
                text(resource.getName()))
            : Attributes.nonResource(
                user, text(nonResource.getVerb()), text(nonResource.getPath()));
    Decision decision = authorizer.authorize(asked);
    SubjectAccessReviewStatus status = new SubjectAccessReviewStatus();
    status.setAllowed(decision.allowed());
    if (!decision.reason().isEmpty()) {
      status.setReason(decision.reason());
    }
    return status;
  }

  private static void requireOneOf(ResourceAttributes resource, NonResourceAttributes nonResource) {
    if ((resource == null) == (nonResource == null)) {
      throw Invalid.of(
          AUTHORIZATION,
          "",
          "spec.resourceAttributes",
          "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be"
              + " specified");
    }
  }

  /**
   * A TokenReview: who a bearer token authenticates, for the API server's audience; an unknown or
   * expired token is not authenticated ({@code invalid bearer token}).
   */
  ApiResponse tokenReview(ApiRequest request, Authentication authentication) {
    ObjectNode body = RequestBodies.object(request);
    String token = body.path("spec").path("token").asText("");
    if (token.isEmpty()) {
      throw StatusError.badRequest("token is required for TokenReview in authentication");
    }
    Identity user = authentication.tokenUser(token);
    ObjectNode answer = body.deepCopy();
    answer.put("apiVersion", "authentication.k8s.io/v1");
    answer.put("kind", "TokenReview");
    answer.putObject("metadata");
    ObjectNode status = answer.putObject("status");
    if (user == null) {
      status.putObject("user");
      status.put("error", "invalid bearer token");
    } else {
      status.put("authenticated", true);
      UserInfo info = userInfo(user);
      status.set("user", Json.toNode(info));
      status.putArray("audiences").add(TokenRequests.AUDIENCE);
    }
    return ApiResponse.json(201, answer);
  }

  ApiResponse rulesReview(Identity user, ApiRequest request) {
    SelfSubjectRulesReview review = parse(request, SelfSubjectRulesReview.class);
    String namespace = review.getSpec() == null ? null : review.getSpec().getNamespace();
    if (namespace == null || namespace.isEmpty()) {
      throw StatusError.badRequest("no namespace on request");
    }
    Authorizer.Rules found = authorizer.rulesFor(user, namespace);
    List<ResourceRule> resourceRules = new ArrayList<>();
    List<NonResourceRule> nonResourceRules = new ArrayList<>();
    for (PolicyRule rule : found.rules()) {
      if (rule.getResources() != null && !rule.getResources().isEmpty()) {
        ResourceRule r = new ResourceRule();
        r.setVerbs(rule.getVerbs());
        r.setApiGroups(rule.getApiGroups());
        r.setResources(rule.getResources());
        r.setResourceNames(rule.getResourceNames());
        resourceRules.add(r);
      }
      if (rule.getNonResourceURLs() != null && !rule.getNonResourceURLs().isEmpty()) {
        NonResourceRule r = new NonResourceRule();
        r.setVerbs(rule.getVerbs());
        r.setNonResourceURLs(rule.getNonResourceURLs());
        nonResourceRules.add(r);
      }
    }
    SubjectRulesReviewStatus status = new SubjectRulesReviewStatus();
    status.setResourceRules(resourceRules);
    status.setNonResourceRules(nonResourceRules);
    // As Kubernetes' RBAC authorizer: errors are reported, the rules are not marked incomplete.
    status.setIncomplete(false);
    if (!found.errors().isEmpty()) {
      status.setEvaluationError(RbacAuthorizer.aggregate(found.errors()));
    }
    // As the real server: the answer's spec is empty.
    review.setSpec(new SelfSubjectRulesReviewSpec());
    review.setStatus(status);
    review.setMetadata(new ObjectMeta());
    return created(review);
  }

  ApiResponse selfReview(Identity user, ApiRequest request) {
    SelfSubjectReview review = parse(request, SelfSubjectReview.class);
    SelfSubjectReviewStatus status = new SelfSubjectReviewStatus();
    status.setUserInfo(userInfo(user));
    review.setStatus(status);
    ObjectMeta meta = new ObjectMeta();
    meta.setCreationTimestamp(
        clock.instant().with(java.time.temporal.ChronoField.NANO_OF_SECOND, 0).toString());
    review.setMetadata(meta);
    return created(review);
  }

  private static UserInfo userInfo(Identity user) {
    UserInfo info = new UserInfo();
    info.setUsername(user.name());
    if (!user.uid().isEmpty()) {
      info.setUid(user.uid());
    }
    info.setGroups(user.groups());
    if (!user.extra().isEmpty()) {
      info.setExtra(user.extra());
    }
    return info;
  }

  private static <T> T parse(ApiRequest request, Class<T> type) {
    ObjectNode body = RequestBodies.object(request);
    try {
      return Json.MAPPER.convertValue(body, type);
    } catch (IllegalArgumentException e) {
      throw StatusError.badRequest(
          "the body of the request was in an unknown format: " + e.getMessage());
    }
  }

  private static ApiResponse created(Object review) {
    return ApiResponse.json(201, Json.toNode(review));
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }
}
