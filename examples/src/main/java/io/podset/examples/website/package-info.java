/**
 * The Website operator: a custom resource owning a ConfigMap, a Deployment and a Service, with a
 * finalizer for what lives outside the cluster and a {@code Ready} condition, written on the typed
 * controller API ({@code manager.controllerFor(...)}).
 */
package io.podset.examples.website;
