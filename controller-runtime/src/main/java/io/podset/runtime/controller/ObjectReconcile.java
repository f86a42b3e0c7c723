package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.ownership.Finalizers;
import io.podset.runtime.reconcile.Cleanup;
import io.podset.runtime.reconcile.ObjectReconciler;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.reconcile.TerminalReconcileException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A typed reconciler behind the {@link Reconciler} API: reads the primary from the cache, runs the
 * finalizer workflow around the cleanup, records the context's writes for the read-your-writes
 * barrier of the next reconcile, and reports each pass to the controller's {@link RecentFaults}
 * (which decides when a create must confirm the primary first). A reconcile whose context found the
 * primary gone from the server ends as done, whatever it threw.
 */
final class ObjectReconcile<P extends HasMetadata> implements Reconciler {

  private static final Logger log = LoggerFactory.getLogger(ObjectReconcile.class);

  private final ControllerResources<P> resources;
  private final ObjectReconciler<P> reconciler;
  private final @Nullable Cleanup<P> cleanup;
  private final String finalizer;
  private final ReadYourWrites readYourWrites;
  private final RecentFaults faults;

  ObjectReconcile(
      ControllerResources<P> resources,
      ObjectReconciler<P> reconciler,
      @Nullable Cleanup<P> cleanup,
      String finalizer,
      ReadYourWrites readYourWrites,
      RecentFaults faults) {
    this.resources = resources;
    this.reconciler = reconciler;
    this.cleanup = cleanup;
    this.finalizer = finalizer;
    this.readYourWrites = readYourWrites;
    this.faults = faults;
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<P> cached = resources.primaries().indexer().getByKey(request.toString());
    if (cached.isEmpty()) {
      readYourWrites.forget(request); // gone: its owned objects are the garbage collector's
      faults.forget(request);
      return Result.done();
    }
    P primary = cached.get();
    // A cleanup runs for a primary the cache shows terminating: nothing to confirm there.
    PrimaryConfirmation<P> confirmation =
        Finalizers.isBeingDeleted(primary)
            ? null
            : new PrimaryConfirmation<>(resources, faults, request, primary);
    ReconcileContext<P> context = new ReconcileContext<>(resources, primary, confirmation);
    try {
      Result result = run(context);
      faults.passed(request);
      return result;
    } catch (Exception e) {
      if (context.primaryGone()) {
        // Its deletion event reconciles it once more: a retry would only find it gone again.
        log.debug("{}: {}", request, e.getMessage());
        faults.passed(request);
        return Result.done();
      }
      if (!(e instanceof TerminalReconcileException)) {
        faults.failed(request, e);
      }
      throw e;
    } finally {
      readYourWrites.wrote(request, context.writes());
    }
  }

  private Result run(ReconcileContext<P> context) throws Exception {
    P primary = context.current();
    if (Finalizers.isBeingDeleted(primary)) {
      if (cleanup == null || !Finalizers.has(primary, finalizer)) {
        return Result.done();
      }
      Result result = cleanup.cleanup(context.primary(), context);
      if (result != null && result.requeueAfter().isPresent()) {
        return result;
      }
      context.removeFinalizer(finalizer);
      return Result.done();
    }
    if (cleanup != null
        && !Finalizers.has(primary, finalizer)
        && !context.addFinalizer(finalizer)) {
      return Result.done(); // gone meanwhile
    }
    return reconciler.reconcile(context.primary(), context);
  }
}
