package io.podset.operator;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.runtime.cache.IndexFunction;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.cache.Store;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.controller.ReadYourWrites;
import io.podset.runtime.controller.RecentFaults;
import io.podset.runtime.expectations.Expectations;
import io.podset.runtime.handler.EventHandler;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.reconcile.TerminalReconcileException;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.status.StatusWriter;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one PodSet: reads it and its pods from the informer caches, asks {@link PodSetPlanner}
 * what to do, has the plan carried out, and writes the status through the {@code /status}
 * subresource when it changed. The one read from the API server confirms that the PodSet still
 * exists (a GET of it, {@link #confirmedLive}), and only where the caches cannot vouch for it:
 *
 * <ul>
 *   <li>after the PodSet lost pods the operator did not delete, before anything is written for it
 *       ({@link UnconfirmedOwners}: the garbage collector may be removing the pods of a PodSet
 *       whose deletion the PodSet cache has not shown yet);
 *   <li>right before the first write of a pass that gives the PodSet pods, while the PodSet cache
 *       does not show that it follows the server ({@link CacheVersion#following}: its watch open, a
 *       change or bookmark applied within {@link #PODSET_CACHE_SILENCE}, and our own status writes
 *       shown within {@link #PODSET_CACHE_TOLERANCE}): its first adoption, which comes first in a
 *       pass (an orphan adopted by a PodSet that is gone would be collected with it; the ReplicaSet
 *       controller also reads its ReplicaSet from the server before adopting), or else its first
 *       create, after the pass's deletes and patches, so that they do not widen the window between
 *       the read and the creates ({@link CreatingOwner}). A PodSet cache held back (watch events
 *       held or delayed by the server, a watch being re-opened, a relist waiting for its turn) may
 *       still show a PodSet the server deleted; pods created for it would only be collected again.
 *       When the cache follows, it is trusted as it is: a deletion it shows later than that
 *       (younger than the tolerance, or held back for less than the silence while we wrote
 *       nothing), or one racing the creates, is the garbage collector's, as for any controller.
 *       (Before, the creates were confirmed whenever the PodSet cache's resourceVersion was below
 *       the pod cache's: on every pass a pod event triggered, and never when both caches lagged
 *       behind a deletion together.)
 *   <li>right before the first adoption or create of a pass, likewise, while faults are about
 *       ({@link RecentFaults}): a pass of this PodSet failed last (a retry), or within {@link
 *       #FAULT_MEMORY} a pass of any PodSet met a fault a retry may cure, an informer's list or
 *       watch met one ({@link CacheVersion#faultedWithin}). A server in trouble holds back and
 *       delays events in runs, and the deletions the watch state misses (younger than the
 *       tolerance, or held back for less than the silence) happen then. A cache seen not following
 *       is asked again at the next pass, not remembered: on a busy, healthy server that is load,
 *       not a fault.
 *   <li>before a create of a pass that is under way, when the pod cache has meanwhile seen pods of
 *       this PodSet deleted that the operator did not delete, or when the pass's previous
 *       slow-start batch took longer than {@link #PODSET_CACHE_TOLERANCE} while the caches do not
 *       vouch for the PodSet as above ({@link CreatingOwner}, which also stops the creates once the
 *       PodSet cache shows the PodSet gone).
 * </ul>
 *
 * <p>The common paths read only the caches: creates while the PodSet cache follows and no fault was
 * seen, deletions, image patches and status writes.
 *
 * <p>Safety against a stale cache: creations and deletions are tracked by {@link Expectations}
 * (lowered by {@link #podEventHandler()}, met early once the pod cache has observed the
 * resourceVersions our creates returned), and pod patches and status writes by the runtime's
 * read-your-writes barrier ({@link #readYourWrites()}, which the controller consults before each
 * reconcile: a PodSet whose last writes the caches do not show yet is reconciled the moment they
 * do). While either is unmet, the reconcile writes nothing and waits for the events that will
 * trigger it again.
 *
 * <p>Status writes: only when the status changed; a pass that created pods leaves it to the passes
 * their events trigger, and while the new pods start those collect the changes in windows ({@link
 * StartingPods}: one {@link PodSetOptions#statusDelay()} after the first new pod turned Ready, at
 * most five from the first write held back, then longer windows while pods keep starting), so that
 * a new PodSet's status is written about once rather than once per pod becoming Ready; a status
 * with every pod Ready is written at once. A failure is written at once, unless a retry is likely
 * to cure it (a 409, 429, 5xx or broken connection: {@link PassingFailures}), which is written only
 * once the PodSet has kept failing for {@link #TRANSIENT_FAILURE_GRACE}; while the condition shows
 * a failure of the same reason, a new message alone is not written ({@link
 * PodSetStatuses#writeNow}).
 *
 * <p>Failures: a PodSet that cannot work as written gets a {@code ReplicaFailure} condition ({@code
 * InvalidSpec}) and a {@link TerminalReconcileException} (no retry until it changes); a refused or
 * failed pod write gets a {@code ReplicaFailure} condition and a {@link PodSetReconcileException},
 * so the controller retries with its backoff; a later successful pass removes the condition.
 *
 * <p>Thread-safe; the controller never runs two reconciles of one PodSet at once. {@link #close()}
 * stops the pool of pod writers.
 */
public final class PodSetReconciler implements Reconciler, AutoCloseable {

  /** The pod cache index by PodSet label: values {@code namespace/podset-name}. */
  public static final String PODSET_LABEL_INDEX = "podsetLabel";

  /**
   * How soon a PodSet waiting for the cache to show our writes is looked at again if no event
   * comes: the events normally arrive within milliseconds; this bounds the damage of a lost one.
   */
  static final Duration UNSETTLED_RECHECK = Duration.ofSeconds(5);

  /**
   * How long a PodSet may fail with faults a retry usually cures (409, 429, 5xx, broken
   * connections) before its status shows them: under faults that pass within seconds, writing the
   * condition and removing it again doubled the status writes.
   */
  static final Duration TRANSIENT_FAILURE_GRACE = Duration.ofSeconds(5);

  /**
   * How late the PodSet cache may show our own status writes and still be trusted before creating
   * pods: under normal operation it shows them within milliseconds; under the chaos soak's delayed
   * watch events (0.2 to 1 s) it does not, and a deletion may be missing.
   */
  static final Duration PODSET_CACHE_TOLERANCE = Duration.ofMillis(250);

  /**
   * How long the PodSet cache may have applied nothing (no change, no bookmark) and still be
   * trusted before creating pods: a watch the server holds back says nothing. Longer than the
   * tolerance, since a quiet resource is quiet; our own writes catch a hold sooner.
   */
  static final Duration PODSET_CACHE_SILENCE = Duration.ofSeconds(2);

  /**
   * How long after a fault was seen pods are created only after confirming their PodSet ({@link
   * RecentFaults}): the chaos soak's campaign starts a new fault every ~0.4 s and a hold or delay
   * of PodSet events every ~9 s; a server that failed a request of ours this recently may be
   * holding events back now.
   */
  static final Duration FAULT_MEMORY = Duration.ofSeconds(10);

  /**
   * How long a PodSet's writes wait after the server refused one with a Retry-After (at least
   * that), doubling while the refusals go on: see {@link WritePauses}.
   */
  static final Duration THROTTLED_WAIT = Duration.ofSeconds(1);

  /** How long a PodSet's next status write waits after one failed, doubling while they fail. */
  static final Duration STATUS_RETRY_WAIT = Duration.ofSeconds(1);

  /**
   * The longest of those waits (unless the server asks for more): short enough that the end of a
   * fault is caught up with within seconds, while a lasting one costs one attempt per 5 s (before,
   * every pod event of the PodSet attempted the status write again).
   */
  static final Duration MAX_WRITE_WAIT = Duration.ofSeconds(5);

  private static final Logger LOG = LoggerFactory.getLogger(PodSetReconciler.class);

  private final KubernetesClient client;
  private final Store<PodSet> podSets;
  private final Indexer<Pod> pods;
  private final CacheVersion podCache;
  private final CacheVersion podSetCache;
  private final Clock clock;
  private final PodSetPlanner planner;
  private final Expectations<Request> expectations;
  private final ReadYourWrites writes;
  private final UnconfirmedOwners unconfirmed = new UnconfirmedOwners();
  private final RecentFaults faults;
  private final StartingPods<Request> startingPods;
  private final PassingFailures<Request> failures = new PassingFailures<>(TRANSIENT_FAILURE_GRACE);
  private final WritePauses<Request> throttled = new WritePauses<>(THROTTLED_WAIT, MAX_WRITE_WAIT);
  private final WritePauses<Request> statusRetries =
      new WritePauses<>(STATUS_RETRY_WAIT, MAX_WRITE_WAIT);
  private final PlanExecutor executor;
  private final StatusWriter statuses;
  private final Duration unsettledRecheck;

  private PodSetReconciler(
      KubernetesClient client,
      Store<PodSet> podSets,
      Indexer<Pod> pods,
      CacheVersion podSetCache,
      CacheVersion podCache,
      EventRecorder events,
      PodSetOptions options) {
    this.client = Objects.requireNonNull(client, "client");
    this.podSets = Objects.requireNonNull(podSets, "podSets");
    this.pods = Objects.requireNonNull(pods, "pods");
    this.podSetCache = Objects.requireNonNull(podSetCache, "podSetCache");
    this.podCache = Objects.requireNonNull(podCache, "podCache");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(options, "options");
    for (String index : List.of(Indexers.CONTROLLER_UID, PODSET_LABEL_INDEX)) {
      if (!pods.indexNames().contains(index)) {
        throw new IllegalArgumentException(
            "the pod cache needs the index '"
                + index
                + "' (see podIndexers()), has "
                + pods.indexNames());
      }
    }
    this.clock = options.clock();
    this.unsettledRecheck =
        options.expectationsTimeout().compareTo(UNSETTLED_RECHECK) < 0
            ? options.expectationsTimeout()
            : UNSETTLED_RECHECK;
    this.planner = PodSetPlanner.create(options.burst());
    this.startingPods = new StartingPods<>(options.statusDelay());
    this.expectations = Expectations.create(clock, options.expectationsTimeout());
    this.writes = ReadYourWrites.create(clock, options.expectationsTimeout());
    this.statuses = StatusWriter.of(client);
    this.faults =
        RecentFaults.create(
            clock,
            FAULT_MEMORY,
            PODSET_CACHE_TOLERANCE,
            PODSET_CACHE_SILENCE,
            podSetCache,
            List.of(podSetCache, podCache));
    this.executor =
        new PlanExecutor(
            client, events, expectations, writes, podCache, options.writeParallelism());
  }

  /**
   * A reconciler reading the given informers' caches; adds the pod indices it needs ({@link
   * #podIndexers()}) to the pod informer unless present. Register {@link #podEventHandler()} for
   * the pod informer's events (the {@link PodSetController} wiring does).
   *
   * @throws NullPointerException if an argument is null
   */
  public static PodSetReconciler create(
      KubernetesClient client,
      SharedInformer<PodSet> podSets,
      SharedInformer<Pod> pods,
      EventRecorder events,
      PodSetOptions options) {
    Objects.requireNonNull(podSets, "podSets");
    Objects.requireNonNull(pods, "pods");
    Map<String, IndexFunction<Pod>> missing = new HashMap<>(podIndexers());
    missing.keySet().removeAll(pods.indexer().indexNames());
    if (!missing.isEmpty()) {
      pods.addIndexers(missing);
    }
    return new PodSetReconciler(
        client, podSets.indexer(), pods.indexer(), podSets, pods, events, options);
  }

  /**
   * A reconciler over plain caches, for tests that control what the caches show: {@code
   * podSetCache} and {@code podCache} must tell up to which resourceVersion {@code podSets} and
   * {@code pods} are complete.
   *
   * @throws IllegalArgumentException if {@code pods} lacks an index of {@link #podIndexers()}
   */
  static PodSetReconciler create(
      KubernetesClient client,
      Store<PodSet> podSets,
      Indexer<Pod> pods,
      CacheVersion podSetCache,
      CacheVersion podCache,
      EventRecorder events,
      PodSetOptions options) {
    return new PodSetReconciler(client, podSets, pods, podSetCache, podCache, events, options);
  }

  /**
   * The indices the reconciler reads the pod cache by: {@link Indexers#CONTROLLER_UID} (pods a
   * PodSet controls) and {@link #PODSET_LABEL_INDEX} (pods carrying a PodSet's label, orphans
   * included).
   */
  public static Map<String, IndexFunction<Pod>> podIndexers() {
    Map<String, IndexFunction<Pod>> indexers = new LinkedHashMap<>();
    indexers.put(Indexers.CONTROLLER_UID, Indexers.byControllerUid());
    indexers.put(
        PODSET_LABEL_INDEX,
        pod -> {
          Map<String, String> labels = pod.getMetadata().getLabels();
          String name = labels == null ? null : labels.get(PodSetLabels.PODSET);
          return name == null || name.isEmpty()
              ? List.of()
              : List.of(pod.getMetadata().getNamespace() + "/" + name);
        });
    return indexers;
  }

  /**
   * The handler to register on the pod informer: lowers this reconciler's expectations from what
   * the cache shows, then names the PodSets to reconcile. Use it instead of a plain "owns" handler.
   */
  public EventHandler<Pod> podEventHandler() {
    return new PodEvents(expectations, unconfirmed);
  }

  /**
   * The read-your-writes barrier this reconciler records its pod patches and status writes in: give
   * it to the controller ({@code ControllerBuilder.readYourWrites}), as {@link PodSetController}
   * does, so that a PodSet is not reconciled again before the caches show them.
   */
  public ReadYourWrites readYourWrites() {
    return writes;
  }

  @Override
  public Result reconcile(Request request) {
    try {
      return pass(request);
    } catch (TerminalReconcileException e) {
      throw e; // the PodSet cannot work as written: no fault of the server's, and no retry
    } catch (RuntimeException e) {
      faults.failed(request, e);
      throw e;
    }
  }

  private Result pass(Request request) {
    Optional<PodSet> cached = podSets.getByKey(request.toString());
    if (cached.isEmpty()) {
      // Deleted: the garbage collector deletes its pods (they carry its owner reference).
      expectations.forget(request);
      writes.forget(request);
      startingPods.forget(request);
      failures.forget(request);
      unconfirmed.clear(request);
      throttled.forget(request);
      statusRetries.forget(request);
      faults.forget(request);
      return Result.done();
    }
    PodSet podSet = cached.get();
    if (podSet.getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    // Judge the expectations before reading the pods: the cache may catch up in between, and an
    // older snapshot must never pass for one that shows our writes.
    String podsVersion = podCache.lastObservedResourceVersion();
    boolean settled = expectations.satisfied(request, podsVersion) && writes.observed(request);
    List<Pod> candidates = candidatePods(podSet);
    PodSetPlan plan = planner.plan(podSet, candidates, settled);
    if (!settled && plan.problem() == null) {
      // The pod events that show our writes will trigger the next pass; the delayed requeue only
      // guarantees progress if they are lost (the expectations expire by then).
      LOG.debug("{}: waiting for the pod cache to show our writes", request);
      return Result.requeueAfter(unsettledRecheck);
    }
    Duration throttledFor = throttled.remaining(request, clock.instant());
    if (!throttledFor.isZero()) {
      // The server asked us to wait: the pass at the end of the wait writes what is due then.
      LOG.debug("{}: writes wait {} for the server", request, throttledFor);
      return Result.requeueAfter(throttledFor);
    }
    // Adoptions come first in a pass and, like creates, give the PodSet pods: an orphan adopted by
    // a PodSet that is gone would be collected with it. Creates are confirmed by the owner below,
    // right before the first one.
    boolean confirmAdoptions = !plan.adopt().isEmpty() && !cachesVouchFor(request);
    if ((unconfirmed.isMarked(request) || confirmAdoptions) && !confirmedLive(request, podSet)) {
      return Result.done();
    }
    if (LOG.isDebugEnabled() && (plan.create() > 0 || !plan.delete().isEmpty())) {
      LOG.debug(
          "{}: {} pods to create, {} to delete: PodSet uid {} rv {} replicas {}; the pod cache"
              + " (at rv {}) shows {} active: {}",
          request,
          plan.create(),
          plan.delete().size(),
          podSet.getMetadata().getUid(),
          podSet.getMetadata().getResourceVersion(),
          podSet.getSpec() == null ? null : podSet.getSpec().replicas(),
          podCache.lastObservedResourceVersion(),
          plan.active().size(),
          plan.active().stream().map(p -> p.getMetadata().getName()).sorted().toList());
    }
    CreatingOwner owner =
        new CreatingOwner(
            request,
            podSet,
            podSets,
            unconfirmed,
            live -> confirmedLive(request, live),
            clock,
            PODSET_CACHE_TOLERANCE,
            () -> cachesVouchFor(request));
    ReplicaFailure failure =
        plan.problem() != null
            ? new ReplicaFailure(ReplicaFailure.INVALID_SPEC, plan.problem())
            : executor.execute(request, podSet, plan, owner);
    if (owner.stopped()) {
      RuntimeException unconfirmedBy = owner.failure();
      if (unconfirmedBy != null) {
        throw unconfirmedBy;
      }
      // Gone: its deletion event (or the cache already showing it) reconciles it once more.
      LOG.debug("{}: stopped creating pods, the PodSet is gone", request);
      return Result.done();
    }
    Instant now = clock.instant();
    Long generationOrNull = podSet.getMetadata().getGeneration();
    long generation = generationOrNull == null ? 0 : generationOrNull;
    if (plan.create() > 0) {
      startingPods.created(request, generation);
    }
    PodSetStatus current = podSet.getStatus() == null ? PodSetStatus.empty() : podSet.getStatus();
    PodSetStatus status = PodSetStatuses.compute(podSet, current, plan, failure, now);
    if (failure == null) {
      failures.forget(request);
      throttled.forget(request);
      faults.passed(request);
    } else {
      ApiFailures.retryAfter(failure.cause())
          .ifPresent(after -> throttled.failed(request, after, now));
    }
    // A held-back failure's status is written by a later pass: the controller retries this one.
    boolean shown = failure == null || failures.showNow(request, failure, now);
    if (shown && PodSetStatuses.writeNow(plan, failure, current, status)) {
      Duration wait =
          failure == null
              ? startingPods.waitFor(request, generation, plan.active(), current, now)
              : Duration.ZERO;
      if (!wait.isZero()) {
        // The new pods' events trigger the next pass; this requeue ends the window.
        LOG.debug("{}: status write waits up to {} for starting pods", request, wait);
        return Result.requeueAfter(wait);
      }
      Duration retryIn = statusRetries.remaining(request, now);
      if (retryIn.isZero()) {
        writeStatus(request, podSet, status, now);
      } else if (failure == null) {
        // The last status write failed: this one waits, and takes in what changes meanwhile.
        LOG.debug("{}: status write waits {} after a failed one", request, retryIn);
        return Result.requeueAfter(retryIn);
      }
      // Else the failure below is retried by the controller, which writes the status later.
    }
    if (failure == null) {
      return Result.done();
    }
    String message = "PodSet " + request + ": " + failure.message();
    if (ReplicaFailure.INVALID_SPEC.equals(failure.reason())) {
      throw new TerminalReconcileException(message);
    }
    throw new PodSetReconcileException(message, failure.cause());
  }

  /**
   * Whether the caches alone may be trusted to show that the PodSet still exists before pods are
   * created for it: the PodSet cache follows its watch and no fault is about ({@link
   * RecentFaults}).
   */
  private boolean cachesVouchFor(Request request) {
    return faults.cachesVouchFor(request);
  }

  /**
   * Reads the PodSet from the server (the one read the reconciler makes) where the caches cannot
   * vouch for it (see the class documentation): true when the server still has the cached PodSet,
   * uid and all, not being deleted. Otherwise the PodSet cache lags (and the garbage collector may
   * be at work); its own event will trigger the next reconcile, and until then nothing is written
   * for a PodSet that is gone.
   */
  private boolean confirmedLive(Request request, PodSet cached) {
    PodSet live;
    try {
      live =
          client
              .resources(PodSet.class)
              .inNamespace(request.namespace())
              .withName(request.name())
              .get();
    } catch (KubernetesClientException e) {
      throw new PodSetReconcileException(
          "PodSet " + request + ": cannot confirm it still exists: " + ApiFailures.describe(e), e);
    }
    String uid = cached.getMetadata().getUid();
    if (live == null
        || !uid.equals(live.getMetadata().getUid())
        || live.getMetadata().getDeletionTimestamp() != null) {
      LOG.debug("{}: the cached PodSet {} is gone from the server", request, uid);
      return false;
    }
    unconfirmed.clear(request);
    return true;
  }

  private List<Pod> candidatePods(PodSet podSet) {
    ObjectMeta meta = podSet.getMetadata();
    List<Pod> candidates = new ArrayList<>(pods.byIndex(Indexers.CONTROLLER_UID, meta.getUid()));
    candidates.addAll(pods.byIndex(PODSET_LABEL_INDEX, meta.getNamespace() + "/" + meta.getName()));
    return candidates;
  }

  /**
   * Replaces the status through the {@code /status} subresource, checking the uid but not the
   * resourceVersion ({@link StatusWriter}): the status is ours alone (one reconcile per PodSet at a
   * time), so a stale cached copy must not turn the write into a conflict.
   */
  private void writeStatus(Request request, PodSet podSet, PodSetStatus status, Instant now) {
    Optional<WrittenObject> written;
    try {
      written = statuses.replace(podSet, status);
    } catch (KubernetesClientException e) {
      statusRetries.failed(request, ApiFailures.retryAfter(e).orElse(null), now);
      throw new PodSetReconcileException(
          "PodSet " + request + ": cannot write status: " + ApiFailures.describe(e), e);
    }
    statusRetries.forget(request);
    startingPods.wrote(request);
    written.ifPresent(w -> writes.wrote(request, podSetCache, w.resourceVersion()));
  }

  /** Stops the pod writers' pool. */
  @Override
  public void close() {
    executor.close();
  }
}
