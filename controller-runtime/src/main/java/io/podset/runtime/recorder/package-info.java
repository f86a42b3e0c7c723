/**
 * Kubernetes Events about the objects a controller manages.
 *
 * <p>{@link io.podset.runtime.recorder.EventRecorder} is what a reconciler calls; the manager
 * provides an implementation that writes in the background, combines the records of one object and
 * reason made within a second into one Event (a count for repeats, one list for different messages)
 * and rate-limits per object, so a hot loop cannot flood the API server.
 */
@NullMarked
package io.podset.runtime.recorder;

import org.jspecify.annotations.NullMarked;
