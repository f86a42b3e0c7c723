package io.podset.runtime.controller;

import io.podset.runtime.informer.SharedInformerFactory;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

/** Entry point for building controllers. */
public final class Controllers {

  // One name registry per informer factory; weak so a discarded factory frees its names.
  private static final Map<SharedInformerFactory, ControllerNames> NAMES = new WeakHashMap<>();

  private Controllers() {}

  /**
   * A builder for a controller whose informers come from {@code informers}.
   *
   * <pre>{@code
   * Controller controller = Controllers.builder(informers)
   *     .named("podset")
   *     .forResource(PodSet.class)
   *     .owns(Pod.class)
   *     .workers(4)
   *     .reconciler(new PodSetReconciler(...))
   *     .build();
   * controller.start();
   * }</pre>
   */
  public static ControllerBuilder builder(SharedInformerFactory informers) {
    Objects.requireNonNull(informers, "informers");
    ControllerNames names;
    synchronized (NAMES) {
      names = NAMES.computeIfAbsent(informers, f -> new ControllerNames());
    }
    return new ControllerBuilder(informers, names);
  }
}
