package io.podset.testkit.internal.auth;

import io.podset.runtime.time.Clock;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The ServiceAccount tokens the TokenRequest subresource issued: opaque random strings (the real
 * server signs JWTs) bound to the ServiceAccount's uid and valid until their expiration.
 *
 * <p>Thread-safe.
 */
final class ServiceAccountTokens {

  /** Whom a token was issued for, and until when. */
  record Issued(String namespace, String name, String uid, Instant expires, boolean forApiServer) {}

  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Object lock = new Object();
  // Guarded by lock: token -> what it was issued for.
  private final Map<String, Issued> tokens = new HashMap<>();

  ServiceAccountTokens(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  String issue(String namespace, String name, String uid, Instant expires, boolean forApiServer) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String token = "fake-sa." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    synchronized (lock) {
      tokens.put(token, new Issued(namespace, name, uid, expires, forApiServer));
    }
    return token;
  }

  /**
   * What the token was issued for, or null when unknown, expired or for other audiences than the
   * API server's.
   */
  Issued find(String token) {
    Issued issued;
    synchronized (lock) {
      issued = tokens.get(token);
    }
    if (issued == null || !issued.forApiServer() || !clock.instant().isBefore(issued.expires())) {
      return null;
    }
    return issued;
  }
}
