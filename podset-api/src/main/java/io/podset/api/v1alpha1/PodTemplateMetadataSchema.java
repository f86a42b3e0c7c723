package io.podset.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;

/**
 * The CRD schema of {@code spec.template.metadata}; never instantiated, only read by the CRD
 * generator through {@code @SchemaSwap} on {@link PodSet}.
 *
 * <p>A full {@code ObjectMeta} schema would document fields (uid, resourceVersion, managedFields,
 * ownerReferences...) that mean nothing in a template; a bare {@code type: object} would make the
 * API server prune the template's labels (a known pitfall of structural schemas); {@code
 * x-kubernetes-preserve-unknown-fields} would accept {@code labels: 5} and break the operator
 * later. So, like controller-gen's embedded object metadata, the schema keeps exactly what a pod
 * takes from its template (as the ReplicaSet controller does): labels, annotations and finalizers.
 */
record PodTemplateMetadataSchema(
    @JsonPropertyDescription("Labels copied onto every pod, besides the PodSet's own labels.")
        Map<String, String> labels,
    @JsonPropertyDescription("Annotations copied onto every pod.") Map<String, String> annotations,
    @JsonPropertyDescription("Finalizers copied onto every pod.") List<String> finalizers) {}
