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
import java.util.Objects;

/**
 * The review APIs every authenticated user may create (the bootstrap ClusterRole {@code
 * system:basic-user}): SelfSubjectAccessReview and SelfSubjectRulesReview
 * (authorization.k8s.io/v1), answered by the server's authorizer for the requester, and
 * SelfSubjectReview (authentication.k8s.io/v1), which tells the requester who it is. Nothing is
 * stored.
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
    ResourceAttributes resource =
        review.getSpec() == null ? null : review.getSpec().getResourceAttributes();
    NonResourceAttributes nonResource =
        review.getSpec() == null ? null : review.getSpec().getNonResourceAttributes();
    if ((resource == null) == (nonResource == null)) {
      throw Invalid.of(
          AUTHORIZATION,
          "",
          "spec.resourceAttributes",
          "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be"
              + " specified");
    }
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
    review.setStatus(status);
    review.setMetadata(new ObjectMeta());
    return created(review);
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
    UserInfo info = new UserInfo();
    info.setUsername(user.name());
    if (!user.uid().isEmpty()) {
      info.setUid(user.uid());
    }
    info.setGroups(user.groups());
    if (!user.extra().isEmpty()) {
      info.setExtra(user.extra());
    }
    SelfSubjectReviewStatus status = new SelfSubjectReviewStatus();
    status.setUserInfo(info);
    review.setStatus(status);
    ObjectMeta meta = new ObjectMeta();
    meta.setCreationTimestamp(
        clock.instant().with(java.time.temporal.ChronoField.NANO_OF_SECOND, 0).toString());
    review.setMetadata(meta);
    return created(review);
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
