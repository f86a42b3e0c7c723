package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.ownership.Finalizers;
import io.podset.runtime.reconcile.Cleanup;
import io.podset.runtime.reconcile.ObjectReconciler;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A typed reconciler behind the {@link Reconciler} API: reads the primary from the cache, runs the
 * finalizer workflow around the cleanup, and records the context's writes for the read-your-writes
 * barrier of the next reconcile.
 */
final class ObjectReconcile<P extends HasMetadata> implements Reconciler {

  private final ControllerResources<P> resources;
  private final ObjectReconciler<P> reconciler;
  private final @Nullable Cleanup<P> cleanup;
  private final String finalizer;
  private final ReadYourWrites readYourWrites;

  ObjectReconcile(
      ControllerResources<P> resources,
      ObjectReconciler<P> reconciler,
      @Nullable Cleanup<P> cleanup,
      String finalizer,
      ReadYourWrites readYourWrites) {
    this.resources = resources;
    this.reconciler = reconciler;
    this.cleanup = cleanup;
    this.finalizer = finalizer;
    this.readYourWrites = readYourWrites;
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<P> cached = resources.primaries().indexer().getByKey(request.toString());
    if (cached.isEmpty()) {
      readYourWrites.forget(request); // gone: its owned objects are the garbage collector's
      return Result.done();
    }
    ReconcileContext<P> context = new ReconcileContext<>(resources, cached.get());
    try {
      return run(context);
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
