package io.podset.testkit.internal.resource;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Kind-specific behaviour on writes: defaulting before validation, validation that reports every
 * problem as a field cause, and name rules. Implementations are stateless.
 */
public interface TypeRules {

  /**
   * Fills what a create sets into a new object (mutable copy), after {@link #applyDefaults} and
   * before validation: initial status, admission's additions, allocated values.
   */
  default void prepareForCreate(ObjectNode object) {}

  /**
   * Carries what the server set on create over into an update of {@code current} that leaves it out
   * ({@code next} is a mutable copy), before {@link #applyDefaults} and validation.
   */
  default void prepareForUpdate(ObjectNode current, ObjectNode next) {}

  /** Adds defaults on every write (create and update); runs before validation. */
  default void applyDefaults(ObjectNode object) {}

  /** Adds one cause per problem found in the object. */
  default void validate(ObjectNode object, List<StatusError.Cause> causes) {}

  /**
   * Adds one cause per problem found in an update of {@code current} to {@code next} (for rules
   * that compare with the old object); by default {@link #validate} of {@code next}.
   */
  default void validateUpdate(ObjectNode current, ObjectNode next, List<StatusError.Cause> causes) {
    validate(next, causes);
  }

  /** Where the objects of {@code type} are stored (one key per resource, versions shared). */
  default String storageKey(ResourceType type) {
    return type.group() + "/" + type.plural();
  }

  /** The stored form of an object written through this type (a mutable copy or the same). */
  default ObjectNode toStorage(ObjectNode object) {
    return object;
  }

  /** A stored object as this type serves it (a copy when it differs; never mutate the input). */
  default ObjectNode fromStorage(ObjectNode stored) {
    return stored;
  }

  /** The name rule of the kind. */
  default NameRule nameRule() {
    return NameRule.SUBDOMAIN;
  }

  /** Rules that do nothing beyond the generic metadata checks. */
  static TypeRules none() {
    return NoRules.INSTANCE;
  }

  /** Rules that accept any path-segment name (RBAC kinds). */
  static TypeRules pathSegmentNamed() {
    return NoRules.PATH_SEGMENT;
  }

  /** The plain rules: generic checks only. */
  enum NoRules implements TypeRules {
    INSTANCE(NameRule.SUBDOMAIN),
    PATH_SEGMENT(NameRule.PATH_SEGMENT);

    private final NameRule rule;

    NoRules(NameRule rule) {
      this.rule = rule;
    }

    @Override
    public NameRule nameRule() {
      return rule;
    }
  }
}
