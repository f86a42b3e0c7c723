package io.podset.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Kind-specific behaviour on writes: defaulting before validation, validation that reports every
 * problem as a field cause, and name rules. Implementations are stateless.
 */
interface TypeRules {

  /** Fills defaults into a new object (mutable copy) before validation. */
  default void prepareForCreate(ObjectNode object) {}

  /** Adds defaults on every write (create and update); runs before validation. */
  default void applyDefaults(ObjectNode object) {}

  /** Adds one cause per problem found in the object. */
  default void validate(ObjectNode object, List<StatusError.Cause> causes) {}

  /** The name rule of the kind. */
  default NameRule nameRule() {
    return NameRule.SUBDOMAIN;
  }

  /** Rules that do nothing beyond the generic metadata checks. */
  static TypeRules none() {
    return NoRules.INSTANCE;
  }

  /** Rules with the DNS-1123 label name rule (namespaces, services). */
  static TypeRules labelNamed() {
    return NoRules.LABEL;
  }

  /** Rules that accept any path-segment name (RBAC kinds). */
  static TypeRules pathSegmentNamed() {
    return NoRules.PATH_SEGMENT;
  }

  /** The plain rules: generic checks only. */
  enum NoRules implements TypeRules {
    INSTANCE(NameRule.SUBDOMAIN),
    LABEL(NameRule.LABEL),
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
