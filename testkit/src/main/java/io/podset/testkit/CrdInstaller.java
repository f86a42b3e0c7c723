package io.podset.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The fake's CRD installation for a test's own set-up: CRDs from YAML, typed, or generated from a
 * custom resource class, each created (or replaced when it exists) through the router, past the
 * request filters (no faults, not in the journal).
 */
final class CrdInstaller {

  /** A request to the router. */
  @FunctionalInterface
  interface Calls {
    ApiResponse call(String method, String path, JsonNode body);
  }

  private final Calls calls;

  CrdInstaller(Calls calls) {
    this.calls = Objects.requireNonNull(calls, "calls");
  }

  /** Installs every CRD of a YAML stream (documents of another kind are refused). */
  List<CustomResourceDefinition> install(InputStream yaml) {
    List<CustomResourceDefinition> installed = new ArrayList<>();
    try (MappingIterator<JsonNode> documents =
        new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
      while (documents.hasNext()) {
        JsonNode document = documents.next();
        if (document == null || document.isNull() || document.isEmpty()) {
          continue;
        }
        if (!"CustomResourceDefinition".equals(document.path("kind").asText())) {
          throw new IllegalArgumentException(
              "expected kind CustomResourceDefinition, got: " + document.path("kind"));
        }
        installed.add(install((ObjectNode) document));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRD YAML", e);
    }
    return installed;
  }

  /** Installs every CRD of a YAML file. */
  List<CustomResourceDefinition> install(Path yaml) {
    try (InputStream in = Files.newInputStream(yaml)) {
      return install(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + yaml, e);
    }
  }

  /** Installs one typed CRD. */
  CustomResourceDefinition install(CustomResourceDefinition crd) {
    return install(Json.toNode(crd));
  }

  /**
   * Installs the CRD fabric8 generates from a custom resource class: a schema-less version
   * preserves unknown fields, a status type adds the status subresource.
   */
  CustomResourceDefinition install(Class<? extends CustomResource<?, ?>> type) {
    CustomResourceDefinitionBuilder builder =
        CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type);
    CustomResourceDefinition crd = builder.build();
    ObjectNode node = Json.toNode(crd);
    for (JsonNode version : node.path("spec").path("versions")) {
      ObjectNode v = (ObjectNode) version;
      ObjectNode schema = Json.child(Json.child(v, "schema"), "openAPIV3Schema");
      if (!schema.has("type")) {
        schema.put("type", "object");
        schema.put("x-kubernetes-preserve-unknown-fields", true);
      }
      if (hasStatusType(type)) {
        Json.child(Json.child(v, "subresources"), "status");
      }
    }
    return install(node);
  }

  private static boolean hasStatusType(Class<?> type) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      Type generic = c.getGenericSuperclass();
      if (generic instanceof ParameterizedType p && p.getRawType() == CustomResource.class) {
        Type status = p.getActualTypeArguments()[1];
        return status != Void.class;
      }
    }
    return false;
  }

  /** Creates the CRD through the router, or replaces it when it exists. */
  private CustomResourceDefinition install(ObjectNode crd) {
    ObjectNode metadata = Json.metadata(crd);
    metadata.remove("resourceVersion");
    String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    ApiResponse created = calls.call("POST", path, crd);
    if (created.status() == 409) {
      created = calls.call("PUT", path + "/" + Json.name(crd), crd);
    }
    if (created.status() >= 300) {
      throw new IllegalArgumentException(
          "CRD "
              + Json.name(crd)
              + " rejected: "
              + new String(created.body(), StandardCharsets.UTF_8));
    }
    try {
      return Json.MAPPER.readValue(created.body(), CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
