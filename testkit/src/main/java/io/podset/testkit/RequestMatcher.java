package io.podset.testkit;

import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Selects journal records: by verb, resource, namespace, name, user agent, user, status and
 * position. Immutable; each method returns a narrower copy. Unset criteria match anything.
 *
 * <pre>{@code
 * RequestJournal.Mark mark = server.journal().mark();
 * reconcileOnce();
 * server.journal().assertCount(RequestMatcher.verb("create").resource("pods").since(mark), 3);
 * server.journal().assertNone(RequestMatcher.writes().since(mark));
 * }</pre>
 */
public final class RequestMatcher implements Predicate<RequestRecord> {

  private static final Set<String> WRITES =
      Set.of("create", "update", "patch", "delete", "deletecollection");

  private final @Nullable Set<String> verbs;
  private final @Nullable String resource;
  private final @Nullable String subresource;
  private final @Nullable String namespace;
  private final @Nullable String name;
  private final @Nullable String userAgent;
  private final @Nullable String user;
  private final @Nullable Integer status;
  private final long afterSequence;

  private RequestMatcher(
      @Nullable Set<String> verbs,
      @Nullable String resource,
      @Nullable String subresource,
      @Nullable String namespace,
      @Nullable String name,
      @Nullable String userAgent,
      @Nullable String user,
      @Nullable Integer status,
      long afterSequence) {
    this.verbs = verbs;
    this.resource = resource;
    this.subresource = subresource;
    this.namespace = namespace;
    this.name = name;
    this.userAgent = userAgent;
    this.user = user;
    this.status = status;
    this.afterSequence = afterSequence;
  }

  /** Every request. */
  public static RequestMatcher any() {
    return new RequestMatcher(null, null, null, null, null, null, null, null, 0);
  }

  /** Requests with one of the verbs ({@code create}, {@code list}, ...). */
  public static RequestMatcher verb(String... verbs) {
    if (verbs.length == 0) {
      throw new IllegalArgumentException("verb needs at least one verb");
    }
    return any().withVerbs(Set.of(verbs));
  }

  /** Requests that change state: create, update, patch, delete, deletecollection. */
  public static RequestMatcher writes() {
    return any().withVerbs(WRITES);
  }

  private RequestMatcher withVerbs(Set<String> newVerbs) {
    return new RequestMatcher(
        newVerbs, resource, subresource, namespace, name, userAgent, user, status, afterSequence);
  }

  /** Only the resource (plural, any group). */
  public RequestMatcher resource(String plural) {
    return new RequestMatcher(
        verbs,
        Objects.requireNonNull(plural, "plural"),
        subresource,
        namespace,
        name,
        userAgent,
        user,
        status,
        afterSequence);
  }

  /** Only the subresource ({@code status}, {@code scale}). */
  public RequestMatcher subresource(String sub) {
    return new RequestMatcher(
        verbs,
        resource,
        Objects.requireNonNull(sub, "sub"),
        namespace,
        name,
        userAgent,
        user,
        status,
        afterSequence);
  }

  /** Only requests in the namespace. */
  public RequestMatcher namespace(String ns) {
    return new RequestMatcher(
        verbs,
        resource,
        subresource,
        Objects.requireNonNull(ns, "ns"),
        name,
        userAgent,
        user,
        status,
        afterSequence);
  }

  /** Only requests naming the object in their path. */
  public RequestMatcher name(String objectName) {
    return new RequestMatcher(
        verbs,
        resource,
        subresource,
        namespace,
        Objects.requireNonNull(objectName, "objectName"),
        userAgent,
        user,
        status,
        afterSequence);
  }

  /** Only requests whose {@code User-Agent} contains the text. */
  public RequestMatcher userAgentContaining(String text) {
    return new RequestMatcher(
        verbs,
        resource,
        subresource,
        namespace,
        name,
        Objects.requireNonNull(text, "text"),
        user,
        status,
        afterSequence);
  }

  /**
   * Only requests served as the user ({@link RequestRecord#user()}): for example {@code
   * system:serviceaccount:podset-system:podset-operator}.
   */
  public RequestMatcher user(String name) {
    return new RequestMatcher(
        verbs,
        resource,
        subresource,
        namespace,
        this.name,
        userAgent,
        Objects.requireNonNull(name, "name"),
        status,
        afterSequence);
  }

  /** Only requests answered with the HTTP status. */
  public RequestMatcher status(int code) {
    return new RequestMatcher(
        verbs, resource, subresource, namespace, name, userAgent, user, code, afterSequence);
  }

  /** Only requests that arrived after the mark. */
  public RequestMatcher since(RequestJournal.Mark mark) {
    Objects.requireNonNull(mark, "mark");
    return new RequestMatcher(
        verbs, resource, subresource, namespace, name, userAgent, user, status, mark.sequence());
  }

  @Override
  public boolean test(RequestRecord r) {
    return r.sequence() > afterSequence
        && (verbs == null || verbs.contains(r.verb()))
        && (resource == null || resource.equals(r.resource()))
        && (subresource == null || subresource.equals(r.subresource()))
        && (namespace == null || namespace.equals(r.namespace()))
        && (name == null || name.equals(r.name()))
        && (userAgent == null || (r.userAgent() != null && r.userAgent().contains(userAgent)))
        && (user == null || user.equals(r.user()))
        && (status == null || status == r.status());
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("requests");
    if (verbs != null) {
      s.append(" verb in ").append(verbs.equals(WRITES) ? "writes" : verbs.toString());
    }
    append(s, "resource", resource);
    append(s, "subresource", subresource);
    append(s, "namespace", namespace);
    append(s, "name", name);
    append(s, "user agent containing", userAgent);
    append(s, "user", user);
    append(s, "status", status);
    if (afterSequence > 0) {
      s.append(" after #").append(afterSequence);
    }
    return s.toString();
  }

  private static void append(StringBuilder s, String label, @Nullable Object value) {
    if (value != null) {
      s.append(' ').append(label).append(' ').append(value);
    }
  }
}
