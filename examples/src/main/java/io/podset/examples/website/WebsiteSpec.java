package io.podset.examples.website;

import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * What the user asks for.
 *
 * @param html the page to serve
 * @param replicas how many nginx pods serve it (default 1)
 */
public record WebsiteSpec(@Required String html, @Min(0) Integer replicas) {

  int replicasOrDefault() {
    return replicas == null ? 1 : replicas;
  }
}
