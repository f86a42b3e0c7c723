/**
 * The PodSet operator: a ReplicaSet-grade reconciler for {@link io.podset.api.v1alpha1.PodSet}.
 *
 * <p>The decisions are pure and separate from the I/O: {@link io.podset.operator.PodSetPlanner}
 * turns a PodSet and its cached pods into a {@link io.podset.operator.PodSetPlan} (adopt, release,
 * create, delete ranked, patch images, replace), and {@link io.podset.operator.PodSetStatuses}
 * computes the status to write. The reconciler reads the informer caches, asks the planner, carries
 * the plan out through the client (creates in slow-start batches, with expectations so a stale
 * cache never causes extra creates or deletes), records Events and writes the status only when it
 * changed.
 *
 * <p>Pods are labelled as {@link io.podset.operator.PodSetLabels} describes.
 */
package io.podset.operator;
