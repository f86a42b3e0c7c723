/**
 * Kubernetes Events about the objects a controller manages.
 *
 * <p>{@link io.podset.runtime.event.EventRecorder} is what a reconciler calls; the manager provides
 * an implementation that aggregates repeats into one Event with a count and rate-limits per object,
 * so a hot loop cannot flood the API server.
 */
package io.podset.runtime.event;
