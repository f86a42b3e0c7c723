package io.podset.testkit.internal.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * The documents a real kube-apiserver 1.34 serves, read once per JVM from the resource that {@code
 * testkit/kube/openapi/fetch-openapi.sh} writes: per group/version path ({@code api/v1}, {@code
 * apis/apps/v1}) the document of the built-in kinds, and the documents it builds for a namespaced
 * and a cluster-scoped template CRD. The tree is shared and never modified: callers copy what they
 * change.
 */
final class RealDocuments {

  static final String RESOURCE = "kube-openapi-v3.json.gz";

  private RealDocuments() {}

  /** The whole resource; loaded on first use, since most tests never ask for OpenAPI. */
  static JsonNode root() {
    return Holder.ROOT;
  }

  /** The real document of a group/version path such as {@code apis/apps/v1}, or a missing node. */
  static JsonNode builtin(String path) {
    return root().path("documents").path(path);
  }

  /** The template CRD document for a scope ({@code Namespaced} or {@code Cluster}). */
  static JsonNode crdTemplate(boolean namespaced) {
    return root().path("crdTemplates").path(namespaced ? "Namespaced" : "Cluster");
  }

  /** The placeholder names of the template CRDs: version, kind, plural, singular. */
  static JsonNode placeholders() {
    return root().path("placeholders");
  }

  private static final class Holder {
    static final JsonNode ROOT = load();

    private static JsonNode load() {
      try (InputStream in = RealDocuments.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("the OpenAPI resource " + RESOURCE + " is missing");
        }
        try (GZIPInputStream gz = new GZIPInputStream(in)) {
          return Json.MAPPER.readTree(gz);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the OpenAPI resource " + RESOURCE, e);
      }
    }
  }
}
