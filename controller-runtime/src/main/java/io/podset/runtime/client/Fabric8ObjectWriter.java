package io.podset.runtime.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** The {@link ObjectWriter} over a fabric8 client's HTTP client. */
final class Fabric8ObjectWriter implements ObjectWriter {

  private static final JsonFactory JSON = new JsonFactory();

  private final HttpClient http;
  private final KubernetesSerialization serialization;
  private final String master;
  private final long timeoutMillis;

  Fabric8ObjectWriter(KubernetesClient client) {
    Objects.requireNonNull(client, "client");
    this.http = client.getHttpClient();
    this.serialization = client.getKubernetesSerialization();
    String url = client.getMasterUrl().toString();
    this.master = url.endsWith("/") ? url : url + "/";
    this.timeoutMillis = client.getConfiguration().getRequestTimeout();
  }

  @Override
  public WrittenObject create(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(object.getMetadata(), "object.metadata");
    Class<? extends HasMetadata> type = object.getClass();
    String namespace = object.getMetadata().getNamespace();
    if (Namespaced.class.isAssignableFrom(type) && (namespace == null || namespace.isEmpty())) {
      throw new IllegalArgumentException(
          "a " + HasMetadata.getKind(type) + " to create needs metadata.namespace");
    }
    String url = collection(type, Namespaced.class.isAssignableFrom(type) ? namespace : null);
    byte[] body = serialization.asJson(object).getBytes(StandardCharsets.UTF_8);
    return object(
        "POST",
        url,
        send("POST", url, request().uri(URI.create(url)).post("application/json", body)));
  }

  @Override
  public WrittenObject patch(
      Class<? extends HasMetadata> type,
      @Nullable String namespace,
      String name,
      @Nullable String subresource,
      PatchType patchType,
      String patch) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(patchType, "patchType");
    Objects.requireNonNull(patch, "patch");
    if (patchType == PatchType.SERVER_SIDE_APPLY) {
      throw new IllegalArgumentException(
          "patchType SERVER_SIDE_APPLY needs a field manager: use the client's typed operations");
    }
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    StringBuilder url = new StringBuilder(collection(type, namespace)).append('/').append(name);
    if (subresource != null) {
      url.append('/').append(subresource);
    }
    String target = url.toString();
    return object(
        "PATCH",
        target,
        send(
            "PATCH",
            target,
            request().uri(URI.create(target)).method("PATCH", patchType.getContentType(), patch)));
  }

  @Override
  public Optional<WrittenObject> delete(
      Class<? extends HasMetadata> type,
      @Nullable String namespace,
      String name,
      @Nullable String uid) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    String target = collection(type, namespace) + "/" + name;
    String options =
        "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Background\""
            + (uid == null ? "" : ",\"preconditions\":{\"uid\":\"" + uid + "\"}")
            + "}";
    try {
      return Optional.ofNullable(
          send(
              "DELETE",
              target,
              request().uri(URI.create(target)).method("DELETE", "application/json", options)));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static WrittenObject object(String method, String url, @Nullable WrittenObject written) {
    if (written == null) {
      throw new KubernetesClientException(
          "Failure executing: "
              + method
              + " at: "
              + url
              + ": the answer is a Status, not an object");
    }
    return written;
  }

  private HttpRequest.Builder request() {
    HttpRequest.Builder builder = http.newHttpRequestBuilder().header("Accept", "application/json");
    if (timeoutMillis > 0) {
      builder.timeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }
    return builder;
  }

  /**
   * {@code <master>api/v1[/namespaces/<ns>]/<plural>} for the core group, {@code
   * <master>apis/<group>/<version>[/namespaces/<ns>]/<plural>} otherwise.
   */
  private String collection(Class<? extends HasMetadata> type, @Nullable String namespace) {
    String group = HasMetadata.getGroup(type);
    StringBuilder sb = new StringBuilder(master);
    if (group == null || group.isEmpty()) {
      sb.append("api/").append(HasMetadata.getVersion(type));
    } else {
      sb.append("apis/").append(group).append('/').append(HasMetadata.getVersion(type));
    }
    if (namespace != null) {
      sb.append("/namespaces/").append(namespace);
    }
    return sb.append('/').append(HasMetadata.getPlural(type)).toString();
  }

  private @Nullable WrittenObject send(String method, String url, HttpRequest.Builder builder) {
    HttpResponse<byte[]> response;
    try {
      response = http.sendAsync(builder.build(), byte[].class).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException(method + " at " + url + " interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof KubernetesClientException k) {
        throw k;
      }
      throw new KubernetesClientException(
          "Failure executing: " + method + " at: " + url + ": " + cause, cause);
    }
    byte[] body = response.body() == null ? new byte[0] : response.body();
    if (!response.isSuccessful()) {
      throw ApiFailures.refused(serialization, method, url, response.code(), body);
    }
    try {
      return written(body);
    } catch (IOException | RuntimeException e) {
      throw new KubernetesClientException(
          "Failure executing: " + method + " at: " + url + ": cannot read the answer: " + e, e);
    }
  }

  /**
   * The top-level {@code metadata}'s namespace, name, uid and resourceVersion of {@code body}; null
   * when the body is a {@code Status} (the answer of some deletes).
   */
  static @Nullable WrittenObject written(byte[] body) throws IOException {
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      String kind = null;
      WrittenObject written = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken token = parser.nextToken();
        if ("kind".equals(field) && token == JsonToken.VALUE_STRING) {
          kind = parser.getText();
        } else if ("metadata".equals(field) && token == JsonToken.START_OBJECT) {
          written = metadata(parser);
        } else {
          parser.skipChildren();
        }
      }
      if ("Status".equals(kind)) {
        return null;
      }
      if (written == null) {
        throw new IOException("no metadata");
      }
      return written;
    }
  }

  private static WrittenObject metadata(JsonParser parser) throws IOException {
    String namespace = null;
    String name = null;
    String uid = null;
    String resourceVersion = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      JsonToken value = parser.nextToken();
      if (value == JsonToken.VALUE_STRING) {
        switch (key) {
          case "namespace" -> namespace = parser.getText();
          case "name" -> name = parser.getText();
          case "uid" -> uid = parser.getText();
          case "resourceVersion" -> resourceVersion = parser.getText();
          default -> {}
        }
      } else {
        parser.skipChildren();
      }
    }
    if (name == null || uid == null || resourceVersion == null) {
      throw new IOException(
          "metadata needs name, uid and resourceVersion, got name="
              + name
              + ", uid="
              + uid
              + ", resourceVersion="
              + resourceVersion);
    }
    return new WrittenObject(namespace, name, uid, resourceVersion);
  }
}
