package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.api.v1alpha1.PodSet;
import io.podset.operator.PodSetPlan.ContainerImage;
import io.podset.operator.PodSetPlan.ImageUpdate;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.client.ObjectWriter;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.controller.ReadYourWrites;
import io.podset.runtime.expectations.Expectations;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.recorder.EventRecorder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a {@link PodSetPlan} through the client: adoptions and releases, deletions, image
 * patches, then creations in slow-start batches, each sent only while {@link CreatingOwner} says
 * the PodSet is still there (told when each batch starts, so a slow batch has the next one confirm
 * the PodSet). Keeps the expectations protocol for creates and deletes (expect before writing,
 * report every outcome), records each pod patch in the read-your-writes barrier, records Events,
 * and returns the first failure instead of throwing, so the caller can put it in the status before
 * asking for a retry.
 *
 * <p>Writes of one step run in parallel on a bounded pool shared by all PodSets. Thread-safe.
 */
final class PlanExecutor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PlanExecutor.class);

  private final KubernetesClient client;
  private final EventRecorder events;
  private final Expectations<Request> expectations;
  private final ReadYourWrites writes;
  private final CacheVersion podCache;
  private final ObjectWriter writer;
  private final ExecutorService pool;

  PlanExecutor(
      KubernetesClient client,
      EventRecorder events,
      Expectations<Request> expectations,
      ReadYourWrites writes,
      CacheVersion podCache,
      int parallelism) {
    this.client = client;
    this.events = events;
    this.expectations = expectations;
    this.writes = writes;
    this.podCache = podCache;
    this.writer = ObjectWriter.of(client);
    this.pool = Executors.newFixedThreadPool(parallelism, daemonThreads());
  }

  /**
   * Carries out {@code plan} for the PodSet {@code key}; each create is sent only if {@code owner}
   * still allows it, and the creates stop at the first it does not (the caller reads why from
   * {@code owner}).
   *
   * @return the first failure, or null when every write sent succeeded
   */
  ReplicaFailure execute(Request key, PodSet podSet, PodSetPlan plan, CreatingOwner owner) {
    for (Pod pod : plan.adopt()) {
      ReplicaFailure failure =
          patch(key, podSet, pod, PodPatches.adopt(pod, podSet), "adopting", false);
      if (failure != null) {
        return failure;
      }
    }
    for (Pod pod : plan.release()) {
      ReplicaFailure failure =
          patch(key, podSet, pod, PodPatches.release(pod, podSet), "releasing", true);
      if (failure != null) {
        return failure;
      }
    }
    List<Pod> deletions = new ArrayList<>(plan.delete());
    deletions.addAll(plan.replace());
    if (!deletions.isEmpty()) {
      ReplicaFailure failure = delete(key, podSet, deletions);
      if (failure != null) {
        return failure;
      }
    }
    if (!plan.imageUpdates().isEmpty()) {
      String hash = plan.templateHash().full();
      ReplicaFailure failure =
          firstFailure(
              plan.imageUpdates(),
              update ->
                  patch(
                      key,
                      podSet,
                      update.pod(),
                      PodPatches.updateImages(update, hash),
                      "updating",
                      true,
                      update));
      if (failure != null) {
        return failure;
      }
    }
    return plan.create() > 0 ? create(key, podSet, plan.podToCreate(), plan.create(), owner) : null;
  }

  private ReplicaFailure create(
      Request key, PodSet podSet, Pod pod, int total, CreatingOwner owner) {
    expectations.expectCreations(key, total);
    AtomicInteger sent = new AtomicInteger();
    ReplicaFailure failure = null;
    for (int size : SlowStart.batches(total)) {
      if (owner.stopped()) {
        break;
      }
      owner.batchStarts();
      List<Integer> batch = java.util.stream.IntStream.range(0, size).boxed().toList();
      List<String> created = Collections.synchronizedList(new ArrayList<>(size));
      failure =
          firstFailure(
              batch,
              i -> {
                // Asked before every create, not once per batch: the creates of a batch wait for
                // pool threads, and a deletion seen meanwhile still saves the ones not sent.
                if (!owner.mayCreate()) {
                  return null;
                }
                sent.incrementAndGet();
                try {
                  // Only the name, uid and resourceVersion of the answer are decoded.
                  WrittenObject written = writer.create(pod);
                  expectations.created(key, written.uid(), written.resourceVersion());
                  created.add(written.name());
                  return null;
                } catch (RuntimeException e) {
                  expectations.creationFailed(key);
                  String error = ApiFailures.describe(e);
                  events.warning(podSet, "FailedCreate", "Error creating: " + error);
                  return new ReplicaFailure(
                      ReplicaFailure.FAILED_CREATE, "cannot create pods: " + error, e);
                }
              });
      // One record per batch; the recorder combines the batches of a pass into one Event.
      recordList(podSet, "SuccessfulCreate", "Created pods", created);
      if (failure != null) {
        break;
      }
    }
    // Creates never sent will produce no event.
    int done = sent.get();
    for (int skipped = total - done; skipped > 0; skipped--) {
      expectations.creationFailed(key);
    }
    if (failure != null) {
      LOG.info(
          "{}: {} of {} pod creates not done, stopped at the first failed batch: {}",
          key,
          total - done,
          total,
          failure.message());
    } else if (owner.stopped()) {
      LOG.info(
          "{}: {} of {} pod creates not sent: the PodSet is gone or could not be confirmed",
          key,
          total - done,
          total);
    }
    return failure;
  }

  private ReplicaFailure delete(Request key, PodSet podSet, List<Pod> pods) {
    String namespace = podSet.getMetadata().getNamespace();
    expectations.expectDeletions(
        key, pods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toList()));
    List<String> deleted = Collections.synchronizedList(new ArrayList<>(pods.size()));
    ReplicaFailure failure =
        firstFailure(
            pods,
            pod -> {
              String name = pod.getMetadata().getName();
              String uid = pod.getMetadata().getUid();
              try {
                boolean found =
                    !client.pods().inNamespace(namespace).withName(name).delete().isEmpty();
                if (found) {
                  expectations.deleted(key, uid, null);
                  deleted.add(name);
                } else {
                  // Already gone: its deletion may have been seen before we expected it.
                  expectations.deletionObserved(key, uid);
                }
                return null;
              } catch (RuntimeException e) {
                expectations.deletionFailed(key, uid);
                String error = ApiFailures.describe(e);
                events.warning(podSet, "FailedDelete", "Error deleting: " + error);
                return new ReplicaFailure(
                    ReplicaFailure.FAILED_DELETE, "cannot delete pod " + name + ": " + error, e);
              }
            });
    recordList(podSet, "SuccessfulDelete", "Deleted pods", deleted);
    return failure;
  }

  /**
   * Records one Normal event {@code "<head>: a, b"} naming the pods of one step, sorted (they were
   * written in parallel); nothing when there are none.
   */
  private void recordList(PodSet podSet, String reason, String head, List<String> podNames) {
    if (podNames.isEmpty()) {
      return;
    }
    List<String> sorted;
    synchronized (podNames) {
      sorted = podNames.stream().sorted().toList();
    }
    events.normal(podSet, reason, head + ": " + String.join(", ", sorted));
  }

  private ReplicaFailure patch(
      Request key, PodSet podSet, Pod pod, String patch, String verb, boolean goneIsFine) {
    return patch(key, podSet, pod, patch, verb, goneIsFine, null);
  }

  private ReplicaFailure patch(
      Request key,
      PodSet podSet,
      Pod pod,
      String patch,
      String verb,
      boolean goneIsFine,
      ImageUpdate update) {
    String name = pod.getMetadata().getName();
    try {
      Pod patched =
          client
              .pods()
              .inNamespace(pod.getMetadata().getNamespace())
              .resource(pod) // not withName: fabric8 would GET the pod before the patch
              .patch(PatchContext.of(PatchType.JSON), patch);
      writes.wrote(key, podCache, patched.getMetadata().getResourceVersion());
      if (update != null) {
        events.normal(
            podSet,
            "SuccessfulUpdate",
            "Updated pod: " + name + " to images " + describeImages(update.changes()));
      }
      return null;
    } catch (KubernetesClientException e) {
      if (goneIsFine && e.getCode() == 404) {
        return null;
      }
      String error = ApiFailures.describe(e);
      events.warning(podSet, "FailedUpdate", "Error " + verb + " pod " + name + ": " + error);
      return new ReplicaFailure(
          ReplicaFailure.FAILED_UPDATE, "cannot finish " + verb + " pod " + name + ": " + error, e);
    }
  }

  /** Runs {@code write} for every item in parallel; the failure of the first item that failed. */
  private <T> ReplicaFailure firstFailure(List<T> items, Function<T, ReplicaFailure> write) {
    if (items.size() == 1) {
      return write.apply(items.get(0));
    }
    List<CompletableFuture<ReplicaFailure>> futures =
        items.stream()
            .map(item -> CompletableFuture.supplyAsync(() -> write.apply(item), pool))
            .toList();
    ReplicaFailure first = null;
    for (CompletableFuture<ReplicaFailure> future : futures) {
      ReplicaFailure failure;
      try {
        failure = future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while writing pods", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("a pod write failed unexpectedly", e.getCause());
      }
      if (first == null) {
        first = failure;
      }
    }
    return first;
  }

  private static String describeImages(List<ContainerImage> changes) {
    return changes.stream().map(c -> c.name() + "=" + c.image()).collect(Collectors.joining(", "));
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "podset-writes-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
