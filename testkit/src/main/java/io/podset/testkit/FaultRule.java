package io.podset.testkit;

import io.podset.testkit.internal.http.RequestInfo;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * When to inject a {@link Fault}: the requests it applies to (verbs, resource, subresource,
 * namespace, name, the client's user agent), which of the matching ones (skip the first n, at most
 * k times, with a probability) and during which time on the server's clock.
 *
 * <pre>{@code
 * server.faults().add(FaultRule.match().verbs("create").resource("pods").nth(2)
 *     .inject(Fault.conflict()));
 * server.faults().add(FaultRule.match().verbs("watch").resource("configmaps")
 *     .inject(Fault.gone()));
 * }</pre>
 *
 * <p>A rule that names no resource, subresource, namespace or name also applies to the paths that
 * address no resource ({@code /version}, discovery under {@code /api} and {@code /apis}, {@code
 * /openapi}), whose verb is the lower-case HTTP method ({@code get}), when its fault is a status or
 * latency: so {@code match().inject(Fault.status(401, ...))} refuses credentials everywhere, a
 * client's preflight included. {@link Builder#resourceRequestsOnly()} keeps it to resources.
 *
 * <p>Immutable.
 */
public final class FaultRule {

  private final @Nullable Set<String> verbs;
  private final @Nullable String group;
  private final @Nullable String resource;
  private final @Nullable String subresource;
  private final @Nullable String namespace;
  private final @Nullable String name;
  private final @Nullable String userAgent;
  private final boolean resourceRequestsOnly;
  private final long skip;
  private final long times;
  private final double probability;
  private final long seed;
  private final @Nullable Instant from;
  private final @Nullable Instant until;
  private final Fault fault;

  private FaultRule(Builder b, Fault fault) {
    this.verbs = b.verbs;
    this.group = b.group;
    this.resource = b.resource;
    this.subresource = b.subresource;
    this.namespace = b.namespace;
    this.name = b.name;
    this.userAgent = b.userAgent;
    this.resourceRequestsOnly = b.resourceRequestsOnly;
    this.skip = b.skip;
    this.times = b.times;
    this.probability = b.probability;
    this.seed = b.seed;
    this.from = b.from;
    this.until = b.until;
    this.fault = fault;
  }

  /** Starts a rule that matches every request until narrowed. */
  public static Builder match() {
    return new Builder();
  }

  /** The fault injected. */
  public Fault fault() {
    return fault;
  }

  boolean matches(RequestInfo info, String requestUserAgent, Instant now) {
    return (verbs == null || verbs.contains(info.verb()))
        && matchesTarget(info.group(), info.resource(), info.namespace(), requestUserAgent)
        && (subresource == null || subresource.equals(info.subresource()))
        && (name == null || name.equals(info.name()))
        && (from == null || !now.isBefore(from))
        && (until == null || now.isBefore(until));
  }

  /**
   * Whether a watch of the resource in the namespace (null: all namespaces), opened with the user
   * agent (null: none), is covered.
   */
  boolean matchesTarget(
      String requestGroup,
      String requestResource,
      String requestNamespace,
      String requestUserAgent) {
    return (resource == null || resource.equals(requestResource))
        && (group == null || group.equals(requestGroup))
        && (namespace == null || namespace.equals(requestNamespace))
        && (userAgent == null
            || (requestUserAgent != null && requestUserAgent.contains(userAgent)));
  }

  /** Whether the rule may apply to a request that addresses no resource (see the class docs). */
  boolean appliesToNonResourcePaths() {
    return resource == null
        && group == null
        && subresource == null
        && namespace == null
        && name == null
        && !resourceRequestsOnly
        && (fault.kind() == Fault.Kind.STATUS || fault.kind() == Fault.Kind.LATENCY);
  }

  long skip() {
    return skip;
  }

  long times() {
    return times;
  }

  double probability() {
    return probability;
  }

  long seed() {
    return seed;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(fault.toString()).append(" on");
    s.append(verbs == null ? " any verb" : " " + verbs);
    s.append(' ')
        .append(
            resource != null
                ? resource
                : appliesToNonResourcePaths() ? "any resource or path" : "any resource");
    if (subresource != null) {
      s.append('/').append(subresource);
    }
    if (namespace != null || name != null) {
      s.append(' ')
          .append(namespace == null ? "*" : namespace)
          .append('/')
          .append(name == null ? "*" : name);
    }
    if (userAgent != null) {
      s.append(" from user agent containing \"").append(userAgent).append('"');
    }
    return s.toString();
  }

  /** Narrows the requests a rule applies to. Not thread-safe; each setter validates at once. */
  public static final class Builder {
    private @Nullable Set<String> verbs;
    private @Nullable String group;
    private @Nullable String resource;
    private @Nullable String subresource;
    private @Nullable String namespace;
    private @Nullable String name;
    private @Nullable String userAgent;
    private boolean resourceRequestsOnly;
    private long skip;
    private long times = Long.MAX_VALUE;
    private double probability = 1.0;
    private long seed = 1;
    private @Nullable Instant from;
    private @Nullable Instant until;

    private Builder() {}

    /**
     * Only these Kubernetes verbs: get, list, watch, create, update, patch, delete,
     * deletecollection.
     *
     * @throws IllegalArgumentException for an unknown verb
     */
    public Builder verbs(String... names) {
      Set<String> known =
          Set.of("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection");
      for (String verb : names) {
        if (!known.contains(verb)) {
          throw new IllegalArgumentException("unknown verb \"" + verb + "\"; expected " + known);
        }
      }
      if (names.length == 0) {
        throw new IllegalArgumentException("verbs needs at least one verb");
      }
      this.verbs = Set.of(names);
      return this;
    }

    /** Only this resource (plural), in any group. */
    public Builder resource(String plural) {
      this.resource = Objects.requireNonNull(plural, "plural");
      return this;
    }

    /** Only this resource of this group ({@code ""} for core). */
    public Builder resource(String group, String plural) {
      this.group = Objects.requireNonNull(group, "group");
      this.resource = Objects.requireNonNull(plural, "plural");
      return this;
    }

    /** Only requests for this subresource ({@code status}, {@code scale}). */
    public Builder subresource(String sub) {
      this.subresource = Objects.requireNonNull(sub, "sub");
      return this;
    }

    /** Only requests in this namespace. */
    public Builder namespace(String ns) {
      this.namespace = Objects.requireNonNull(ns, "ns");
      return this;
    }

    /** Only requests naming this object. */
    public Builder name(String objectName) {
      this.name = Objects.requireNonNull(objectName, "objectName");
      return this;
    }

    /**
     * Only requests whose {@code User-Agent} header contains {@code text}: tells apart clients of
     * the same server, e.g. two candidates for one Lease, each with its own user agent, or an
     * operator and the test observing it. For event faults: only the watches such clients opened.
     *
     * @throws IllegalArgumentException if {@code text} is empty
     */
    public Builder userAgentContaining(String text) {
      Objects.requireNonNull(text, "text");
      if (text.isEmpty()) {
        throw new IllegalArgumentException("userAgentContaining needs a non-empty text");
      }
      this.userAgent = text;
      return this;
    }

    /**
     * Only requests that address a resource: not {@code /version} nor discovery, which a rule that
     * names no resource otherwise covers too.
     */
    public Builder resourceRequestsOnly() {
      this.resourceRequestsOnly = true;
      return this;
    }

    /**
     * Lets the first {@code n} matching requests through.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder skip(long n) {
      if (n < 0) {
        throw new IllegalArgumentException("skip must not be negative: " + n);
      }
      this.skip = n;
      return this;
    }

    /**
     * Injects at most {@code k} times.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder times(long k) {
      if (k < 1) {
        throw new IllegalArgumentException("times must be positive: " + k);
      }
      this.times = k;
      return this;
    }

    /**
     * Only the n-th matching request (from 1): {@code skip(n - 1).times(1)}.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder nth(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("nth counts from 1: " + n);
      }
      return skip(n - 1).times(1);
    }

    /**
     * Injects into each eligible request with this probability, drawn from a generator seeded with
     * {@link #seed(long)} (so runs repeat).
     *
     * @throws IllegalArgumentException if not in (0, 1]
     */
    public Builder probability(double p) {
      if (!(p > 0 && p <= 1)) {
        throw new IllegalArgumentException("probability must be in (0, 1]: " + p);
      }
      this.probability = p;
      return this;
    }

    /** The seed of the probability draws. Default 1. */
    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    /** Only from this instant on the server's clock (inclusive). */
    public Builder from(Instant instant) {
      this.from = Objects.requireNonNull(instant, "instant");
      return this;
    }

    /** Only before this instant on the server's clock. */
    public Builder until(Instant instant) {
      this.until = Objects.requireNonNull(instant, "instant");
      return this;
    }

    /**
     * The rule that injects {@code fault}.
     *
     * @throws IllegalArgumentException if {@code until} is not after {@code from}
     */
    public FaultRule inject(Fault fault) {
      Objects.requireNonNull(fault, "fault");
      if (from != null && until != null && !until.isAfter(from)) {
        throw new IllegalArgumentException(
            "until (" + until + ") must be after from (" + from + ")");
      }
      return new FaultRule(this, fault);
    }
  }
}
