package ${package}.${kindLower};

import io.fabric8.generator.annotation.Required;

/**
 * What the user asks for. Each component is a field of the CRD's schema; annotations such as
 * {@code @Required}, {@code @Min} or {@code @Pattern} become its validation.
 *
 * @param message the text the operator publishes in a ConfigMap
 */
public record ${kind}Spec(@Required String message) {}
