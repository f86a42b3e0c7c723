package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.Locale;
import java.util.Objects;

/**
 * Who sent a request, from its {@code Authorization: Bearer} header: the admin token of the fake's
 * own kubeconfig and clients, or a ServiceAccount token that has not expired and whose
 * ServiceAccount still exists with the same uid. A request without a bearer token is anonymous; an
 * unknown token is refused with 401, as kube-apiserver does (even though anonymous requests are
 * allowed).
 */
final class Authentication {

  /** The bearer token of the fake's admin (its kubeconfig and {@code clientConfig()}). */
  static final String ADMIN_TOKEN = "fake-token";

  private static final String SERVICE_ACCOUNTS = "/serviceaccounts";

  private final ObjectStore store;
  private final ServiceAccountTokens tokens;

  Authentication(ObjectStore store, ServiceAccountTokens tokens) {
    this.store = Objects.requireNonNull(store, "store");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /**
   * The requester.
   *
   * @throws StatusError 401 for a token that authenticates nobody
   */
  Identity authenticate(ApiRequest request) {
    String header = request.header("authorization");
    if (header == null) {
      return Identity.anonymous();
    }
    // The scheme, a run of spaces, the token (as splitting at " +" once, without a regex).
    String value = header.trim();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
      return Identity.anonymous();
    }
    String token = value.substring(space).trim();
    if (token.isEmpty()) {
      return Identity.anonymous();
    }
    Identity user = tokenUser(token);
    if (user == null) {
      throw unauthorized();
    }
    return user;
  }

  /** Whom a bearer token authenticates, or null. */
  Identity tokenUser(String token) {
    if (token.equals(ADMIN_TOKEN)) {
      return Identity.admin();
    }
    ServiceAccountTokens.Issued issued = tokens.find(token);
    if (issued != null) {
      ObjectNode account =
          store.get(SERVICE_ACCOUNTS, ObjectStore.key(issued.namespace(), issued.name()));
      if (account != null && issued.uid().equals(account.path("metadata").path("uid").asText())) {
        return Identity.serviceAccount(issued.namespace(), issued.name(), issued.uid());
      }
    }
    return null;
  }

  static StatusError unauthorized() {
    return new StatusError(401, "Unauthorized", "Unauthorized", null);
  }
}
