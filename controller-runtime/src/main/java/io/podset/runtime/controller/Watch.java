package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.event.Event;
import io.podset.runtime.handler.EventHandler;
import io.podset.runtime.informer.SharedInformer;
import java.util.function.Predicate;

/** One source of requests: an informer, a filter over its events and the mapping to requests. */
record Watch<T extends HasMetadata>(
    SharedInformer<T> informer, Predicate<? super Event<T>> filter, EventHandler<T> handler) {}
