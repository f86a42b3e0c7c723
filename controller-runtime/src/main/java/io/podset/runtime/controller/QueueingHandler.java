package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.ResourceEventHandler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.workqueue.WorkQueue;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns the informer's events into filtered, mapped requests on the controller's queue. */
final class QueueingHandler<T extends HasMetadata> implements ResourceEventHandler<T> {

  private static final Logger log = LoggerFactory.getLogger(QueueingHandler.class);

  private final Watch<T> watch;
  private final Predicate<? super Event<? extends HasMetadata>> globalFilter;
  private final WorkQueue<Request> queue;
  private final ReconcileCauses causes;
  private final String kind;

  QueueingHandler(
      Watch<T> watch,
      Predicate<? super Event<? extends HasMetadata>> globalFilter,
      WorkQueue<Request> queue,
      ReconcileCauses causes) {
    this.watch = watch;
    this.globalFilter = globalFilter;
    this.queue = queue;
    this.causes = causes;
    this.kind = HasMetadata.getKind(watch.informer().type());
  }

  @Override
  public void onEvent(Event<T> event) {
    if (!watch.filter().test(event) || !globalFilter.test(event)) {
      return;
    }
    var requests = watch.handler().requestsFor(event);
    if (requests.isEmpty()) {
      return;
    }
    String cause = event.kind() + " " + kind + " " + describe(event.object());
    for (Request request : requests) {
      causes.note(request, cause);
      queue.add(request);
    }
    if (log.isTraceEnabled()) {
      log.trace("{} enqueued {}", cause, requests);
    }
  }

  private static String describe(HasMetadata object) {
    var meta = object.getMetadata();
    return meta.getNamespace() == null
        ? meta.getName()
        : meta.getNamespace() + "/" + meta.getName();
  }
}
