package io.podset.examples.stress;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podset.examples.website.Website;
import java.util.Map;

/**
 * What both stress reconcilers do, the obvious way: a page ConfigMap with the spec's html, exactly
 * one pod created by generateName, a {@code Ready} condition whose message is the html served, and
 * a finalizer.
 */
final class NaiveLogic {

  static final String FINALIZER = "stress.example.com/finalizer";

  private NaiveLogic() {}

  static ConfigMap page(Website site) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(site.getMetadata().getName() + "-page")
        .withNamespace(site.getMetadata().getNamespace())
        .endMetadata()
        .withData(Map.of("index.html", site.getSpec().html()))
        .build();
  }

  static Pod server(Website site) {
    return new PodBuilder()
        .withNewMetadata()
        .withGenerateName(site.getMetadata().getName() + "-")
        .withNamespace(site.getMetadata().getNamespace())
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("nginx")
        .withImage("nginx:1.27")
        .endContainer()
        .endSpec()
        .build();
  }
}
