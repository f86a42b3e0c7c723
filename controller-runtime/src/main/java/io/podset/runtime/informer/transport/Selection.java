package io.podset.runtime.informer.transport;

/**
 * Which objects of a resource a lister-watcher lists and watches.
 *
 * @param namespace the namespace, or null for all namespaces (and for a cluster-scoped resource)
 * @param labelSelector a label selector, or null for none
 * @param fieldSelector a field selector, or null for none
 */
public record Selection(String namespace, String labelSelector, String fieldSelector) {}
