/**
 * The PodSet custom resource, API group {@code app.example.com}, version {@code v1alpha1}.
 *
 * <p>A {@link io.podset.api.v1alpha1.PodSet} asks for a number of identical pods, like a
 * ReplicaSet: {@link io.podset.api.v1alpha1.PodSetSpec} says how many and from which pod template;
 * {@link io.podset.api.v1alpha1.PodSetStatus} reports what the operator observed, with {@link
 * io.podset.api.v1alpha1.PodSetCondition conditions}. Defaults that the API server applies from the
 * CRD schema, and those that the operator applies itself (the pod template), are in {@link
 * io.podset.api.v1alpha1.PodSetDefaults}.
 *
 * <p>The CustomResourceDefinition is generated from these types at build time by the fabric8 CRD
 * generator ({@code target/classes/META-INF/fabric8/podsets.app.example.com-v1.yml}) and checked in
 * as {@code deploy/crds/podsets.app.example.com-v1.yml}; the build fails when the two differ.
 *
 * <p>Values: the spec, status, update strategy and conditions are immutable records with value
 * equality, so a reconciler can compare a computed status with the stored one to decide whether to
 * write. The only mutable parts are the fabric8 model objects inside them ({@link
 * io.fabric8.kubernetes.api.model.PodTemplateSpec}): treat those as read-only, and copy before
 * changing.
 */
package io.podset.api.v1alpha1;
