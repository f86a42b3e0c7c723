package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Reads CustomResourceDefinitions from YAML or JSON with one or more documents. */
final class CrdDocuments {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private CrdDocuments() {}

  /**
   * The CRDs in {@code yaml}; the stream is read, not closed.
   *
   * @param source names the stream in error messages
   * @throws IllegalArgumentException if a document is not a CRD
   */
  static List<CustomResourceDefinition> parse(InputStream yaml, String source) {
    Objects.requireNonNull(yaml, "yaml");
    Objects.requireNonNull(source, "source");
    Object parsed = SERIALIZATION.unmarshal(yaml);
    List<?> items = parsed instanceof List<?> list ? list : List.of(parsed);
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (Object item : items) {
      if (!(item instanceof CustomResourceDefinition crd)) {
        throw new IllegalArgumentException(
            source
                + " holds a "
                + (item == null ? "null document" : item.getClass().getSimpleName())
                + ", expected apiextensions.k8s.io/v1 CustomResourceDefinition");
      }
      crds.add(crd);
    }
    return crds;
  }

  /**
   * The CRDs in a file.
   *
   * @throws UncheckedIOException if the file cannot be read
   * @throws IllegalArgumentException if a document is not a CRD
   */
  static List<CustomResourceDefinition> parse(Path yaml) {
    Objects.requireNonNull(yaml, "yaml");
    try (InputStream in = Files.newInputStream(yaml)) {
      return parse(in, yaml.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRDs from " + yaml, e);
    }
  }
}
