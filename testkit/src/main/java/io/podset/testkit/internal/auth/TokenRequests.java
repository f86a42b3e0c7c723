package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.RequestBodies;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * The TokenRequest subresource ({@code POST .../serviceaccounts/{name}/token}): a token for an
 * existing ServiceAccount, valid {@code spec.expirationSeconds} (default 3600, at least 600) for
 * the API server's audience, that authenticates as {@code system:serviceaccount:{ns}:{name}} while
 * the ServiceAccount exists.
 */
final class TokenRequests {

  static final String AUDIENCE = "https://kubernetes.default.svc.cluster.local";
  private static final long MAX_SECONDS = 1L << 32;

  private final ObjectStore store;
  private final ResourceType serviceAccounts;
  private final ServiceAccountTokens tokens;
  private final Clock clock;

  TokenRequests(
      ObjectStore store, ResourceType serviceAccounts, ServiceAccountTokens tokens, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.serviceAccounts = Objects.requireNonNull(serviceAccounts, "serviceAccounts");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Answers a TokenRequest for the ServiceAccount {@code namespace/name} (201). */
  ApiResponse create(String namespace, String name, ApiRequest request) {
    ObjectNode body = RequestBodies.object(request);
    TokenRequest asked;
    try {
      asked = Json.MAPPER.convertValue(body, TokenRequest.class);
    } catch (IllegalArgumentException e) {
      throw StatusError.badRequest("the body of the request was in an unknown format: " + e);
    }
    TokenRequestSpec spec = asked.getSpec() == null ? new TokenRequestSpec() : asked.getSpec();
    long seconds = spec.getExpirationSeconds() == null ? 3600 : spec.getExpirationSeconds();
    return ApiResponse.json(201, Json.toNode(issue(namespace, name, seconds, spec)));
  }

  /**
   * Issues a token for an existing ServiceAccount.
   *
   * @throws StatusError 404 when it does not exist, 422 for a bad expiration
   */
  TokenRequest issue(String namespace, String name, long seconds, TokenRequestSpec spec) {
    if (seconds < 600) {
      throw invalidExpiration(seconds, "may not specify a duration less than 10 minutes");
    }
    if (seconds > MAX_SECONDS) {
      throw invalidExpiration(seconds, "may not specify a duration larger than 2^32 seconds");
    }
    ObjectNode account = store.get(serviceAccounts.storageKey(), ObjectStore.key(namespace, name));
    if (account == null) {
      throw StatusError.notFound(serviceAccounts, name);
    }
    String uid = account.path("metadata").path("uid").asText();
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    Instant expires = now.plusSeconds(seconds);
    TokenRequest answer = new TokenRequest();
    answer.setApiVersion("authentication.k8s.io/v1");
    answer.setKind("TokenRequest");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace(namespace);
    meta.setUid(uid);
    meta.setCreationTimestamp(now.toString());
    answer.setMetadata(meta);
    TokenRequestSpec answered = new TokenRequestSpec();
    List<String> audiences =
        spec.getAudiences() == null || spec.getAudiences().isEmpty()
            ? List.of(AUDIENCE)
            : spec.getAudiences();
    answered.setAudiences(audiences);
    answered.setExpirationSeconds(seconds);
    answered.setBoundObjectRef(spec.getBoundObjectRef());
    answer.setSpec(answered);
    answer.setStatus(
        new TokenRequestStatus(
            expires.toString(),
            tokens.issue(namespace, name, uid, expires, audiences.contains(AUDIENCE))));
    return answer;
  }

  private static StatusError invalidExpiration(long seconds, String why) {
    return Invalid.of(
        "authentication.k8s.io",
        "TokenRequest",
        "spec.expirationSeconds",
        "Invalid value: " + seconds + ": " + why);
  }
}
