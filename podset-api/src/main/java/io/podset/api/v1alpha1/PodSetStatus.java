package io.podset.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The observed state of a {@link PodSet} ({@code status}), written by the operator through the
 * status subresource.
 *
 * <p>Immutable, with value equality: the operator computes the status it would write and writes
 * only when it differs from the stored one. To make that comparison exact, the canonical
 * constructor normalizes: {@code podNames} is sorted and copied, {@code conditions} copied, and an
 * absent list (as read from a server that omits empty lists) becomes an empty one. Empty lists and
 * a null selector are omitted when serialized.
 *
 * @param replicas pods owned by the PodSet and not terminating; the scale subresource's {@code
 *     status.replicas}
 * @param readyReplicas of those, pods whose Ready condition is true
 * @param availableReplicas of those, pods ready for at least {@code minReadySeconds} (0 here, so
 *     equal to ready pods unless the operator says otherwise)
 * @param updatedReplicas of those, pods created from (or patched to) the current template
 * @param podNames the names of the counted pods, sorted
 * @param observedGeneration the {@code metadata.generation} of the spec this status describes
 * @param selector the label selector of the PodSet's pods in string form ({@code key=value,...}),
 *     for the scale subresource (and so for a HorizontalPodAutoscaler); null until first written
 * @param conditions {@value PodSetCondition#AVAILABLE}, {@value PodSetCondition#PROGRESSING} and
 *     {@value PodSetCondition#REPLICA_FAILURE}, at most one per type
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record PodSetStatus(
    @JsonPropertyDescription("Pods owned by the PodSet and not terminating.") @StatusReplicas
        int replicas,
    @JsonPropertyDescription("Owned pods whose Ready condition is true.") int readyReplicas,
    @JsonPropertyDescription("Owned pods that are available.") int availableReplicas,
    @JsonPropertyDescription("Owned pods on the current template.") int updatedReplicas,
    @JsonPropertyDescription("Names of the owned pods, sorted.") List<String> podNames,
    @JsonPropertyDescription("The metadata.generation that this status describes.")
        long observedGeneration,
    @JsonPropertyDescription("The label selector of the pods, for the scale subresource.")
        @LabelSelector
        String selector,
    @JsonPropertyDescription("Available, Progressing and ReplicaFailure conditions.")
        List<PodSetCondition> conditions) {

  /**
   * Normalizes the lists: sorted, unmodifiable copies; null becomes empty.
   *
   * @throws NullPointerException if a pod name or a condition is null
   */
  public PodSetStatus {
    podNames = podNames == null ? List.of() : podNames.stream().sorted().toList();
    podNames = List.copyOf(podNames);
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
  }

  /** An empty status: all counts 0, no pods, no selector, no conditions. */
  public static PodSetStatus empty() {
    return new PodSetStatus(0, 0, 0, 0, List.of(), 0, null, List.of());
  }

  /** A builder starting from an {@link #empty()} status. */
  public static Builder builder() {
    return new Builder(empty());
  }

  /** A builder starting from this status. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The condition of {@code type}, if present. */
  public Optional<PodSetCondition> condition(String type) {
    Objects.requireNonNull(type, "type");
    return conditions.stream().filter(c -> type.equals(c.type())).findFirst();
  }

  /**
   * This status with {@code condition} set, replacing the condition of the same type in place or
   * appending it. As Kubernetes' {@code meta.SetStatusCondition} does, when the existing condition
   * has the same status its {@code lastTransitionTime} is kept (only reason and message change), so
   * setting an unchanged condition again yields an equal status and no write.
   *
   * @throws NullPointerException if {@code condition} is null
   */
  public PodSetStatus withCondition(PodSetCondition condition) {
    Objects.requireNonNull(condition, "condition");
    List<PodSetCondition> updated = new ArrayList<>(conditions.size() + 1);
    boolean replaced = false;
    for (PodSetCondition existing : conditions) {
      if (!replaced && existing.type().equals(condition.type())) {
        String time =
            existing.status().equals(condition.status()) && existing.lastTransitionTime() != null
                ? existing.lastTransitionTime()
                : condition.lastTransitionTime();
        updated.add(
            new PodSetCondition(
                condition.type(),
                condition.status(),
                condition.reason(),
                condition.message(),
                time));
        replaced = true;
      } else {
        updated.add(existing);
      }
    }
    if (!replaced) {
      updated.add(condition);
    }
    return toBuilder().conditions(updated).build();
  }

  /** This status without a condition of {@code type} (itself when there is none). */
  public PodSetStatus withoutCondition(String type) {
    Objects.requireNonNull(type, "type");
    if (condition(type).isEmpty()) {
      return this;
    }
    return toBuilder()
        .conditions(conditions.stream().filter(c -> !type.equals(c.type())).toList())
        .build();
  }

  /**
   * Builds a {@link PodSetStatus}. Each setter validates its argument immediately. Not thread-safe.
   */
  public static final class Builder {
    private int replicas;
    private int readyReplicas;
    private int availableReplicas;
    private int updatedReplicas;
    private List<String> podNames;
    private long observedGeneration;
    private String selector;
    private List<PodSetCondition> conditions;

    private Builder(PodSetStatus from) {
      replicas = from.replicas;
      readyReplicas = from.readyReplicas;
      availableReplicas = from.availableReplicas;
      updatedReplicas = from.updatedReplicas;
      podNames = from.podNames;
      observedGeneration = from.observedGeneration;
      selector = from.selector;
      conditions = from.conditions;
    }

    /**
     * Sets {@code status.replicas}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder replicas(int replicas) {
      this.replicas = nonNegative("status.replicas", replicas);
      return this;
    }

    /**
     * Sets {@code status.readyReplicas}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder readyReplicas(int readyReplicas) {
      this.readyReplicas = nonNegative("status.readyReplicas", readyReplicas);
      return this;
    }

    /**
     * Sets {@code status.availableReplicas}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder availableReplicas(int availableReplicas) {
      this.availableReplicas = nonNegative("status.availableReplicas", availableReplicas);
      return this;
    }

    /**
     * Sets {@code status.updatedReplicas}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder updatedReplicas(int updatedReplicas) {
      this.updatedReplicas = nonNegative("status.updatedReplicas", updatedReplicas);
      return this;
    }

    /**
     * Sets {@code status.podNames}, in any order (the status sorts them).
     *
     * @throws NullPointerException if {@code podNames} or one of its elements is null
     */
    public Builder podNames(Collection<String> podNames) {
      Objects.requireNonNull(podNames, "podNames");
      this.podNames = List.copyOf(podNames);
      return this;
    }

    /**
     * Sets {@code status.observedGeneration}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder observedGeneration(long observedGeneration) {
      if (observedGeneration < 0) {
        throw new IllegalArgumentException(
            "status.observedGeneration must not be negative, got " + observedGeneration);
      }
      this.observedGeneration = observedGeneration;
      return this;
    }

    /** Sets {@code status.selector}; null removes it. */
    public Builder selector(String selector) {
      this.selector = selector;
      return this;
    }

    /**
     * Sets {@code status.conditions}, replacing all.
     *
     * @throws NullPointerException if {@code conditions} or one of its elements is null
     * @throws IllegalArgumentException if two conditions have the same type
     */
    public Builder conditions(Collection<PodSetCondition> conditions) {
      Objects.requireNonNull(conditions, "conditions");
      List<PodSetCondition> copy = List.copyOf(conditions);
      long types = copy.stream().map(PodSetCondition::type).distinct().count();
      if (types != copy.size()) {
        throw new IllegalArgumentException(
            "status.conditions must have at most one condition per type, got " + copy);
      }
      this.conditions = copy;
      return this;
    }

    /** The status built from the values set so far. */
    public PodSetStatus build() {
      return new PodSetStatus(
          replicas,
          readyReplicas,
          availableReplicas,
          updatedReplicas,
          podNames,
          observedGeneration,
          selector,
          conditions);
    }

    private static int nonNegative(String field, int value) {
      if (value < 0) {
        throw new IllegalArgumentException(field + " must not be negative, got " + value);
      }
      return value;
    }
  }
}
