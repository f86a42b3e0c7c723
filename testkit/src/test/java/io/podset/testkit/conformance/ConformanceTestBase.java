package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Shared set-up of the conformance suite: a target server, a namespace per class, the Widget CRD,
 * and helpers for raw HTTP and watch streams (through the fabric8 HTTP client, so a real cluster's
 * credentials apply).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConformanceTestBase {

  static final ObjectMapper JSON = new ObjectMapper();

  ConformanceTarget target;
  KubernetesClient client;
  String ns;

  /** Whether the class needs RBAC enforced (the fake is started with it). */
  boolean enforceRbac() {
    return false;
  }

  @BeforeAll
  void openTarget() {
    target = ConformanceTarget.open(enforceRbac());
    client = target.client();
    ns = target.createNamespace();
    target.installWidgetCrd();
  }

  @AfterAll
  void closeTarget() {
    if (target != null) {
      target.close();
    }
  }

  NonNamespaceOperation<GenericKubernetesResource, ?, Resource<GenericKubernetesResource>>
      widgets() {
    return target.widgets(ns);
  }

  static GenericKubernetesResource widget(String name, int replicas) {
    GenericKubernetesResource w = new GenericKubernetesResource();
    w.setApiVersion("conformance.podset.io/v1");
    w.setKind("Widget");
    w.setMetadata(new ObjectMetaBuilder().withName(name).build());
    Map<String, Object> spec = new HashMap<>();
    spec.put("replicas", replicas);
    w.setAdditionalProperty("spec", spec);
    return w;
  }

  /** The map at {@code field} of a generic resource (spec, status). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> mapOf(GenericKubernetesResource resource, String field) {
    return (Map<String, Object>) resource.getAdditionalProperties().get(field);
  }

  GenericKubernetesResource createWidget(String name, int replicas) {
    return widgets().resource(widget(name, replicas)).create();
  }

  static long rv(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return Long.parseLong(object.getMetadata().getResourceVersion());
  }

  static KubernetesClientException apiError(ThrowableAssert.ThrowingCallable call) {
    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class, call);
    assertThat(e).as("expected the API server to refuse the request").isNotNull();
    return e;
  }

  String widgetsPath() {
    return "/apis/conformance.podset.io/v1/namespaces/" + ns + "/widgets";
  }

  /**
   * A raw response: status code, body parsed as JSON (null when not JSON) and the values of its
   * {@code Warning} headers.
   */
  record Raw(int code, JsonNode body, java.util.List<String> warnings) {}

  Raw raw(
      String method, String path, String contentType, String body, Map<String, String> headers) {
    return raw(client, method, path, contentType, body, headers);
  }

  /** A raw request with the credentials of {@code as}. */
  static Raw raw(
      KubernetesClient as,
      String method,
      String path,
      String contentType,
      String body,
      Map<String, String> headers) {
    HttpClient http = as.getHttpClient();
    HttpRequest.Builder builder =
        http.newHttpRequestBuilder().uri(as.getMasterUrl() + path.substring(1));
    headers.forEach(builder::header);
    if (body != null) {
      builder.method(method, contentType, body);
    } else if (!method.equals("GET")) {
      builder.method(method, "application/json", "");
    }
    try {
      HttpResponse<String> response =
          http.sendAsync(builder.build(), String.class).get(30, TimeUnit.SECONDS);
      JsonNode json;
      try {
        json = JSON.readTree(response.body());
      } catch (IOException e) {
        json = null;
      }
      return new Raw(response.code(), json, response.headers("Warning"));
    } catch (Exception e) {
      throw new IllegalStateException("request " + method + " " + path + " failed", e);
    }
  }

  /** The SelfSubjectAccessReview {@code as} gets for {@code spec} (JSON), checked to be 201. */
  static JsonNode accessReview(KubernetesClient as, String spec) {
    Raw review =
        raw(
            as,
            "POST",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            "application/json",
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
                + "\"spec\":"
                + spec
                + "}",
            Map.of());
    assertThat(review.code()).as(String.valueOf(review.body())).isEqualTo(201);
    return review.body();
  }

  Raw get(String path) {
    return raw("GET", path, null, null, Map.of());
  }

  /** POSTs a JSON object to a collection path and returns what the server stored (201). */
  JsonNode create(String collectionPath, String json) {
    Raw created = raw("POST", collectionPath, "application/json", json, Map.of());
    assertThat(created.code())
        .as("create at " + collectionPath + ": " + created.body())
        .isEqualTo(201);
    return created.body();
  }

  /**
   * Creates a {@code kind} named {@code name} whose top-level fields besides metadata are {@code
   * fields} (JSON members, comma-separated) and returns what the server stored.
   */
  JsonNode createNamed(
      String collectionPath, String apiVersion, String kind, String name, String fields) {
    return create(
        collectionPath,
        "{\"apiVersion\":\""
            + apiVersion
            + "\",\"kind\":\""
            + kind
            + "\",\"metadata\":{\"name\":\""
            + name
            + "\"},"
            + fields
            + "}");
  }

  /** Asserts {@code actual} is the JSON {@code expected} (field order aside), showing both. */
  static void assertSameJson(String what, JsonNode actual, String expected) {
    JsonNode wanted;
    try {
      wanted = JSON.readTree(expected);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(actual)
        .as(what + "\nactual:   " + actual + "\nexpected: " + wanted)
        .isEqualTo(wanted);
  }

  /** An open watch stream: one JSON event per {@link #next}. */
  final class WatchStream implements AutoCloseable {
    private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    private final InputStream body;
    private final Thread reader;
    private volatile boolean ended;

    WatchStream(String pathAndQuery) {
      HttpClient http = client.getHttpClient();
      HttpRequest request =
          http.newHttpRequestBuilder()
              .uri(client.getMasterUrl() + pathAndQuery.substring(1))
              .forStreaming()
              .build();
      try {
        HttpResponse<InputStream> response =
            http.sendAsync(request, InputStream.class).get(30, TimeUnit.SECONDS);
        assertThat(response.code()).as("watch status").isEqualTo(200);
        body = response.body();
      } catch (Exception e) {
        throw new IllegalStateException("watch " + pathAndQuery + " failed", e);
      }
      reader =
          new Thread(
              () -> {
                try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = lines.readLine()) != null) {
                    if (!line.isBlank()) {
                      events.add(JSON.readTree(line));
                    }
                  }
                } catch (IOException e) {
                  // The stream was closed by us or by the server.
                } finally {
                  ended = true;
                }
              },
              "watch-reader");
      reader.setDaemon(true);
      reader.start();
    }

    /** The next event, failing after 10 s. */
    JsonNode next() {
      try {
        JsonNode event = events.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("a watch event within 10 s").isNotNull();
        return event;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The next event that is not a BOOKMARK. */
    JsonNode nextChange() {
      while (true) {
        JsonNode event = next();
        if (!event.path("type").asText().equals("BOOKMARK")) {
          return event;
        }
      }
    }

    /** Waits until the server ends the stream. */
    boolean awaitEnd(long seconds) throws InterruptedException {
      reader.join(TimeUnit.SECONDS.toMillis(seconds));
      return ended;
    }

    boolean hasPending() {
      return !events.isEmpty();
    }

    @Override
    public void close() {
      try {
        body.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  static String type(JsonNode event) {
    return event.path("type").asText();
  }

  static String name(JsonNode event) {
    return event.path("object").path("metadata").path("name").asText();
  }
}
