package io.podset.operator.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.operator.reliability.ClusterHistory.Change;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator's safety and liveness promises, checked on every state of a {@link ClusterHistory}
 * (each resourceVersion, in order), not on samples.
 *
 * <h2>Definitions</h2>
 *
 * <ul>
 *   <li>A pod is <em>owned</em> by a PodSet when its controller owner reference names the PodSet's
 *       uid; it is <em>active</em> when it has no {@code deletionTimestamp} and its phase is
 *       neither Succeeded nor Failed (the operator counts exactly these).
 *   <li>{@code replicas(t)} is the PodSet's {@code spec.replicas} (default 1) in the state at t.
 *   <li>A <em>decrease</em> is a PodSet change that lowers {@code spec.replicas}; {@code d} is the
 *       resourceVersion of the latest one.
 *   <li>{@code old(t)}: active owned pods created at or before {@code d}: pods that existed when
 *       the PodSet was scaled down and whose deletion is the operator's pending work.
 *   <li>{@code recent(t)}: the largest {@code spec.replicas} among the PodSet's versions from the
 *       one the operator had observed at {@code t - inFlight} to the current one (the operator's
 *       view is sampled by {@link OperatorView}): the operator may act on any version it has not
 *       yet seen replaced, and a request it sent may land up to {@code inFlight} later (latency,
 *       Retry-After, client retries).
 * </ul>
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li><b>No surplus</b>: in every state, {@code active(t) <= max(recent(t), old(t))}. Beyond
 *       {@code spec.replicas} there may only be pods asked for within the staleness window, or pods
 *       left from before the latest scale-down. A duplicate create from a stale cache (or by two
 *       instances at once) breaks it.
 *   <li><b>No pod outlives its PodSet</b>: after a PodSet is deleted, an active pod it owns is seen
 *       at most {@code gcGrace} later; and (checked by {@link #convergenceProblems}) once settled,
 *       no pod, terminating or not, is owned by a PodSet that no longer exists.
 *   <li><b>Convergence</b> ({@link #convergenceProblems}): every PodSet has exactly {@code
 *       spec.replicas} active pods, all Ready and running the current template's containers, no
 *       terminating ones, and a status that says so ({@code replicas}, {@code readyReplicas},
 *       {@code availableReplicas}, {@code updatedReplicas}, {@code podNames}, {@code
 *       observedGeneration}, Available=True, Progressing=False, no ReplicaFailure).
 * </ol>
 *
 * <p>Not thread-safe: one thread calls {@link #advance}.
 */
final class PodSetInvariants {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REPORTED = 50;
  private static final int TIMELINE = 40;
  private static final int MAX_EXPLAINED = 5;

  /** What the checker knows of one PodSet. */
  private static final class PodSetState {
    final String key;
    JsonNode object;
    int replicas;
    long lastDecreaseVersion;
    boolean deleted;
    long deletedNanos;
    long deletedVersion;
    // (receivedNanos, resourceVersion, replicas) in order: the values of spec.replicas.
    final List<long[]> replicasHistory = new ArrayList<>();
    // The latest changes of the PodSet and of its pods' activity, oldest first.
    final ArrayDeque<Moment> timeline = new ArrayDeque<>();
    boolean explained;

    PodSetState(String key) {
      this.key = key;
    }
  }

  /** One line of a PodSet's timeline, with the operator's cache versions at that moment. */
  private record Moment(
      long nanos, long resourceVersion, String text, long podSetCache, long podCache) {}

  /** What the checker knows of one pod. */
  private record PodState(
      String key,
      String ownerUid,
      long createdVersion,
      long firstSeenNanos,
      boolean active,
      JsonNode object) {}

  private final OperatorView view;
  private final long inFlightNanos;
  private final long gcGraceNanos;
  private long createdForDeleted;
  private long podsCreated;
  private final Map<String, PodSetState> podSets = new LinkedHashMap<>();
  private final Set<String> ignoredNamespaces = new HashSet<>();
  private final Map<String, PodState> pods = new HashMap<>();
  // Owner uid -> uids of the pods that name it as controller.
  private final Map<String, Set<String>> podsByOwner = new HashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final List<String> explanations = new ArrayList<>();
  private final List<CreatedForDeleted> createdForDeletedPods = new ArrayList<>();
  // (resourceVersion, receivedNanos) of every change, per cache, in resourceVersion order.
  private final List<long[]> podSetChanges = new ArrayList<>();
  private final List<long[]> podChanges = new ArrayList<>();
  private long violationCount;
  private long processedVersion;
  private long checks;
  private int maxSurplus;

  /**
   * @param view the operator's view of PodSets over time
   * @param inFlight how long after the operator's view a request it sent may land
   * @param gcGrace how long an active pod of a deleted PodSet may be seen, from the deletion or
   *     from the pod's creation if later (a create from a stale view)
   */
  PodSetInvariants(OperatorView view, Duration inFlight, Duration gcGrace) {
    this.view = Objects.requireNonNull(view, "view");
    this.inFlightNanos = Objects.requireNonNull(inFlight, "inFlight").toNanos();
    this.gcGraceNanos = Objects.requireNonNull(gcGrace, "gcGrace").toNanos();
  }

  /**
   * Leaves the PodSets and pods of {@code namespace} unchecked: a test's own objects (markers),
   * which no operator promise covers.
   */
  void ignoreNamespace(String namespace) {
    ignoredNamespaces.add(Objects.requireNonNull(namespace, "namespace"));
  }

  /** Checks every state the history holds completely and has not been checked yet. */
  void advance(ClusterHistory history) {
    long upTo = history.complete();
    if (upTo <= processedVersion) {
      return;
    }
    advance(history.changes(processedVersion, upTo), upTo);
  }

  /** Checks {@code changes} (in resourceVersion order), the complete history up to {@code upTo}. */
  void advance(List<Change> changes, long upTo) {
    for (Change change : changes) {
      if (ignoredNamespaces.contains(change.object().path("metadata").path("namespace").asText())) {
        continue;
      }
      switch (change.resource()) {
        case PODSETS -> podSetChanged(change);
        case PODS -> podChanged(change);
        case LEASES -> {}
      }
    }
    processedVersion = upTo;
  }

  private void podSetChanged(Change change) {
    JsonNode object = change.object();
    String uid = object.path("metadata").path("uid").asText();
    PodSetState state = podSets.computeIfAbsent(uid, u -> new PodSetState(key(object)));
    state.object = object;
    podSetChanges.add(new long[] {change.resourceVersion(), change.receivedNanos()});
    note(
        state,
        change,
        "PodSet "
            + change.type()
            + " replicas "
            + object.path("spec").path("replicas").asInt(PodSetDefaults.REPLICAS)
            + " generation "
            + object.path("metadata").path("generation").asLong()
            + " uid "
            + uid);
    if (change.type().equals("DELETED")) {
      state.deleted = true;
      state.deletedNanos = change.receivedNanos();
      state.deletedVersion = change.resourceVersion();
      return;
    }
    int replicas = object.path("spec").path("replicas").asInt(PodSetDefaults.REPLICAS);
    if (!state.replicasHistory.isEmpty() && replicas < state.replicas) {
      state.lastDecreaseVersion = change.resourceVersion();
    }
    if (state.replicasHistory.isEmpty() || replicas != state.replicas) {
      state.replicasHistory.add(
          new long[] {change.receivedNanos(), change.resourceVersion(), replicas});
    }
    state.replicas = replicas;
  }

  private void podChanged(Change change) {
    JsonNode object = change.object();
    String uid = object.path("metadata").path("uid").asText();
    PodState previous = pods.get(uid);
    String owner = controllerUid(object);
    if (previous != null && previous.ownerUid() != null) {
      podsByOwner.getOrDefault(previous.ownerUid(), new HashSet<>()).remove(uid);
    }
    if (change.type().equals("DELETED")) {
      pods.remove(uid);
    } else {
      if (previous == null) {
        podsCreated++;
      }
      long created = previous == null ? change.resourceVersion() : previous.createdVersion();
      long firstSeen = previous == null ? change.receivedNanos() : previous.firstSeenNanos();
      pods.put(uid, new PodState(key(object), owner, created, firstSeen, isActive(object), object));
      if (owner != null) {
        podsByOwner.computeIfAbsent(owner, o -> new HashSet<>()).add(uid);
      }
    }
    podChanges.add(new long[] {change.resourceVersion(), change.receivedNanos()});
    PodState now = pods.get(uid);
    noteActivity(previous, now, change);
    if (owner == null) {
      return;
    }
    PodSetState podSet = podSets.get(owner);
    if (podSet == null) {
      return;
    }
    checks++;
    if (podSet.deleted) {
      if (previous == null && now != null) {
        createdForDeleted++;
        describeCreatedForDeleted(podSet, now, change);
      }
      long since = now == null ? 0 : Math.max(podSet.deletedNanos, now.firstSeenNanos());
      if (now != null && now.active() && change.receivedNanos() - since > gcGraceNanos) {
        violation(
            "pod "
                + now.key()
                + " of deleted PodSet "
                + podSet.key
                + " still active "
                + millis(change.receivedNanos() - since)
                + " ms after the deletion or its creation (rv "
                + change.resourceVersion()
                + ")");
      }
      return;
    }
    if (now == null || !now.active()) {
      return;
    }
    int active = 0;
    int old = 0;
    for (String podUid : podsByOwner.getOrDefault(owner, Set.of())) {
      PodState pod = pods.get(podUid);
      if (pod.active()) {
        active++;
        if (pod.createdVersion() <= podSet.lastDecreaseVersion) {
          old++;
        }
      }
    }
    maxSurplus = Math.max(maxSurplus, active - podSet.replicas);
    int recent = recentReplicas(podSet, change.receivedNanos());
    if (active > Math.max(recent, old)) {
      explain(podSet, change);
      violation(
          "PodSet "
              + podSet.key
              + ": "
              + active
              + " active pods at rv "
              + change.resourceVersion()
              + " (pod "
              + now.key()
              + ") but replicas "
              + podSet.replicas
              + ", at most "
              + recent
              + " within the staleness window, "
              + old
              + " from before the latest scale-down; operator view at rv "
              + view.versionAt(change.receivedNanos() - inFlightNanos)
              + " "
              + millis(inFlightNanos)
              + " ms before (pod cache at rv "
              + view.versionAt(OperatorView.Cache.PODS, change.receivedNanos())
              + " at this change); replicas history "
              + describe(podSet, change.receivedNanos()));
    }
  }

  /**
   * One line per pod created for a deleted PodSet (the first {@value #MAX_REPORTED}): the
   * operator's cache versions when it could have sent the create tell which window let it through
   * (both caches behind the deletion, or the PodSet cache ahead of it).
   */
  private void describeCreatedForDeleted(PodSetState podSet, PodState pod, Change change) {
    if (createdForDeletedPods.size() >= MAX_REPORTED) {
      return;
    }
    long sent = change.receivedNanos() - inFlightNanos;
    createdForDeletedPods.add(
        new CreatedForDeleted(
            podSet.key,
            pod.key(),
            String.format(
                "pod %s created at rv %d, %d ms after PodSet %s was deleted at rv %d; operator caches"
                    + " %d ms before the create: PodSets at rv %d, pods at rv %d",
                pod.key(),
                change.resourceVersion(),
                millis(change.receivedNanos() - podSet.deletedNanos),
                podSet.key,
                podSet.deletedVersion,
                millis(inFlightNanos),
                view.versionAt(OperatorView.Cache.PODSETS, sent),
                view.versionAt(OperatorView.Cache.PODS, sent))));
  }

  /** Notes in the owners' timelines a pod that starts or stops counting as active for them. */
  private void noteActivity(PodState previous, PodState now, Change change) {
    String before = previous != null && previous.active() ? previous.ownerUid() : null;
    String after = now != null && now.active() ? now.ownerUid() : null;
    if (Objects.equals(before, after)) {
      return;
    }
    String name = (now != null ? now : previous).key();
    if (before != null && podSets.containsKey(before)) {
      String why =
          now == null
              ? "deleted"
              : !now.active() ? "terminating or finished" : "released (owner " + after + ")";
      note(podSets.get(before), change, "pod " + name + " stops counting: " + why);
    }
    if (after != null && podSets.containsKey(after)) {
      String why = previous == null ? "created" : "adopted or reactivated";
      note(podSets.get(after), change, "pod " + name + " counts: " + why);
    }
  }

  private void note(PodSetState podSet, Change change, String text) {
    long nanos = change.receivedNanos();
    podSet.timeline.addLast(
        new Moment(
            nanos,
            change.resourceVersion(),
            text,
            view.versionAt(OperatorView.Cache.PODSETS, nanos),
            view.versionAt(OperatorView.Cache.PODS, nanos)));
    if (podSet.timeline.size() > TIMELINE) {
      podSet.timeline.removeFirst();
    }
  }

  /** The first violation of a PodSet (of the first few) gets its timeline in the report. */
  private void explain(PodSetState podSet, Change change) {
    if (podSet.explained || explanations.size() >= MAX_EXPLAINED) {
      return;
    }
    podSet.explained = true;
    StringBuilder s =
        new StringBuilder("timeline of PodSet ")
            .append(podSet.key)
            .append(" up to the violation at rv ")
            .append(change.resourceVersion())
            .append(" (ms relative to it; the operator's PodSet and pod cache versions then):");
    for (Moment m : podSet.timeline) {
      s.append(
          String.format(
              "%n  %+7d ms rv %6d  [PodSets %6d, pods %6d]  %s",
              millis(m.nanos() - change.receivedNanos()),
              m.resourceVersion(),
              m.podSetCache(),
              m.podCache(),
              m.text()));
    }
    explanations.add(s.toString());
  }

  private int recentReplicas(PodSetState podSet, long nowNanos) {
    long seen = view.versionAt(nowNanos - inFlightNanos);
    int max = podSet.replicas;
    List<long[]> history = podSet.replicasHistory;
    for (int i = history.size() - 1; i >= 0; i--) {
      long[] entry = history.get(i);
      max = Math.max(max, (int) entry[2]);
      if (entry[1] <= seen) {
        break; // the version the operator had observed
      }
    }
    return max;
  }

  private static String describe(PodSetState podSet, long nowNanos) {
    StringBuilder s = new StringBuilder("[");
    for (long[] entry : podSet.replicasHistory) {
      if (s.length() > 1) {
        s.append(", ");
      }
      s.append(entry[2])
          .append(" at rv ")
          .append(entry[1])
          .append(" (")
          .append(millis(entry[0] - nowNanos))
          .append(" ms)");
    }
    return s.append(']').toString();
  }

  /** The number of distinct pods observed (every pod ever created, as none is re-listed). */
  long podsCreated() {
    return podsCreated;
  }

  /** Pods created for a PodSet already deleted (from a stale view; collected at once). */
  long createdForDeleted() {
    return createdForDeleted;
  }

  private void violation(String text) {
    violationCount++;
    if (violations.size() < MAX_REPORTED) {
      violations.add(text);
    }
  }

  /** The number of violations found (the first {@value #MAX_REPORTED} are in {@link #report}). */
  long violationCount() {
    return violationCount;
  }

  /** The first violations found. */
  List<String> violations() {
    return List.copyOf(violations);
  }

  /** The timelines of the first violating PodSets, up to their first violation. */
  /** The pods created for deleted PodSets (the first {@value #MAX_REPORTED}). */
  List<CreatedForDeleted> createdForDeletedPods() {
    return List.copyOf(createdForDeletedPods);
  }

  /**
   * A pod created for a PodSet already deleted.
   *
   * @param podSet the PodSet's key ({@code namespace/name})
   * @param pod the pod's key
   * @param description when, and what the operator's caches showed, for the report
   */
  record CreatedForDeleted(String podSet, String pod, String description) {}

  List<String> explanations() {
    return List.copyOf(explanations);
  }

  /**
   * How long the operator's caches lagged: for each change the observer received, the time from its
   * arrival at the observer to the first sample of {@link OperatorView} showing the operator's
   * cache at or past its resourceVersion (the observer's own delay is not counted). One line per
   * cache: the maximum, the 99th percentile and the changes not yet in the cache.
   */
  String cacheLag() {
    return lag(OperatorView.Cache.PODSETS, podSetChanges)
        + "; "
        + lag(OperatorView.Cache.PODS, podChanges);
  }

  private String lag(OperatorView.Cache cache, List<long[]> changes) {
    long[] versions = new long[changes.size()];
    for (int i = 0; i < versions.length; i++) {
      versions[i] = changes.get(i)[0];
    }
    long[] reached = view.reached(cache, versions);
    long[] lags = new long[versions.length];
    int n = 0;
    int missing = 0;
    for (int i = 0; i < versions.length; i++) {
      if (reached[i] == Long.MAX_VALUE) {
        missing++;
      } else {
        lags[n++] = Math.max(0, reached[i] - changes.get(i)[1]);
      }
    }
    long[] sorted = Arrays.copyOf(lags, n);
    Arrays.sort(sorted);
    long max = n == 0 ? 0 : sorted[n - 1];
    long p99 = n == 0 ? 0 : sorted[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)];
    return String.format(
        "%s cache: %d changes, lag max %.1f s, p99 %.2f s, %d not reached",
        cache.name().toLowerCase(java.util.Locale.ROOT),
        versions.length,
        max / 1e9,
        p99 / 1e9,
        missing);
  }

  /** How many states were checked (pod changes of a known PodSet). */
  long checks() {
    return checks;
  }

  /** The largest {@code active - spec.replicas} seen (positive after scale-downs). */
  int maxSurplus() {
    return maxSurplus;
  }

  /** The resourceVersion up to which states were checked. */
  long processedVersion() {
    return processedVersion;
  }

  /** The number of pods present in the latest checked state. */
  int podCount() {
    return pods.size();
  }

  /**
   * What keeps the latest checked state from being converged (empty when it is): invariant 3, and
   * the settled part of invariant 2.
   */
  List<String> convergenceProblems() {
    List<String> problems = new ArrayList<>();
    Map<String, List<PodState>> byOwner = new HashMap<>();
    for (PodState pod : pods.values()) {
      PodSetState owner = pod.ownerUid() == null ? null : podSets.get(pod.ownerUid());
      if (owner == null || owner.deleted) {
        problems.add(
            "pod "
                + pod.key()
                + " is left behind (owner "
                + (owner == null ? pod.ownerUid() : "deleted PodSet " + owner.key)
                + ")");
        continue;
      }
      byOwner.computeIfAbsent(pod.ownerUid(), u -> new ArrayList<>()).add(pod);
    }
    for (Map.Entry<String, PodSetState> entry : podSets.entrySet()) {
      PodSetState podSet = entry.getValue();
      if (!podSet.deleted) {
        problems.addAll(converged(podSet, byOwner.getOrDefault(entry.getKey(), List.of())));
      }
      if (problems.size() >= MAX_REPORTED) {
        break;
      }
    }
    return problems;
  }

  private static List<String> converged(PodSetState podSet, List<PodState> owned) {
    List<String> problems = new ArrayList<>();
    JsonNode object = podSet.object;
    String prefix = "PodSet " + podSet.key + ": ";
    JsonNode containers = templateContainers(object);
    Set<String> names = new TreeSet<>();
    int terminating = 0;
    int notReady = 0;
    int outdated = 0;
    for (PodState pod : owned) {
      if (!pod.active()) {
        terminating++;
        continue;
      }
      names.add(pod.object().path("metadata").path("name").asText());
      if (!isReady(pod.object())) {
        notReady++;
      }
      if (!sameContainers(containers, pod.object().path("spec").path("containers"))) {
        outdated++;
      }
    }
    int replicas = podSet.replicas;
    if (names.size() != replicas) {
      problems.add(prefix + names.size() + " active pods, replicas " + replicas);
    }
    if (terminating > 0) {
      problems.add(prefix + terminating + " terminating or finished pods remain");
    }
    if (notReady > 0) {
      problems.add(prefix + notReady + " pods not Ready");
    }
    if (outdated > 0) {
      problems.add(prefix + outdated + " pods not on the current template");
    }
    JsonNode status = object.path("status");
    for (String field :
        List.of("replicas", "readyReplicas", "availableReplicas", "updatedReplicas")) {
      if (status.path(field).asInt(0) != replicas) {
        problems.add(prefix + "status." + field + " " + status.path(field) + ", want " + replicas);
      }
    }
    long generation = object.path("metadata").path("generation").asLong();
    if (status.path("observedGeneration").asLong() != generation) {
      problems.add(
          prefix
              + "status.observedGeneration "
              + status.path("observedGeneration")
              + ", generation "
              + generation);
    }
    Set<String> reported = new TreeSet<>();
    status.path("podNames").forEach(n -> reported.add(n.asText()));
    if (!reported.equals(names)) {
      problems.add(prefix + "status.podNames " + reported + ", pods " + names);
    }
    Map<String, String> conditions = new HashMap<>();
    status
        .path("conditions")
        .forEach(c -> conditions.put(c.path("type").asText(), c.path("status").asText()));
    if (!"True".equals(conditions.get("Available"))
        || !"False".equals(conditions.get("Progressing"))
        || conditions.containsKey("ReplicaFailure")) {
      problems.add(prefix + "conditions " + conditions);
    }
    return problems;
  }

  private static JsonNode templateContainers(JsonNode podSet) {
    JsonNode template = podSet.path("spec").path("template");
    if (template.isMissingNode() || template.isNull()) {
      return JSON.valueToTree(PodSetDefaults.template()).path("spec").path("containers");
    }
    return template.path("spec").path("containers");
  }

  /** Whether the pod's containers have the template's names, images and environment. */
  private static boolean sameContainers(JsonNode wanted, JsonNode actual) {
    if (wanted.size() != actual.size()) {
      return false;
    }
    for (int i = 0; i < wanted.size(); i++) {
      JsonNode w = wanted.get(i);
      JsonNode a = actual.get(i);
      if (!w.path("name").equals(a.path("name"))
          || !w.path("image").equals(a.path("image"))
          || !w.path("env").equals(a.path("env"))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isReady(JsonNode pod) {
    for (JsonNode condition : pod.path("status").path("conditions")) {
      if ("Ready".equals(condition.path("type").asText())) {
        return "True".equals(condition.path("status").asText());
      }
    }
    return false;
  }

  private static boolean isActive(JsonNode pod) {
    String phase = pod.path("status").path("phase").asText("");
    return !pod.path("metadata").hasNonNull("deletionTimestamp")
        && !phase.equals("Succeeded")
        && !phase.equals("Failed");
  }

  private static String controllerUid(JsonNode object) {
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      if (ref.path("controller").asBoolean(false)) {
        return ref.path("uid").asText();
      }
    }
    return null;
  }

  private static String key(JsonNode object) {
    return object.path("metadata").path("namespace").asText()
        + "/"
        + object.path("metadata").path("name").asText();
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }
}
