package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.time.ManualClock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Fault rules: which requests they hit, what they answer, and what they do to watch streams. */
class FaultInjectionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final ManualClock clock = new ManualClock();
  private final HttpClient http = HttpClient.newHttpClient();
  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = FakeApiServer.builder().clock(clock).start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private ConfigMap createConfigMap(String name) {
    return client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build())
        .create();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(server.url().resolve(path))
            .timeout(Duration.ofSeconds(20))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private FaultInjector.Handle onListingConfigMaps(Fault fault) {
    return server
        .faults()
        .add(FaultRule.match().verbs("list").resource("configmaps").inject(fault));
  }

  @Test
  void nthCreate_getsConflict_onlyOnce_andIsCounted() {
    FaultInjector.Handle rule =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("create")
                    .resource("configmaps")
                    .nth(2)
                    .inject(Fault.conflict()));
    createConfigMap("one");
    assertThatThrownBy(() -> createConfigMap("two"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    createConfigMap("three");
    assertThat(rule.injected()).isEqualTo(1);
    assertThat(server.faults().injected()).isEqualTo(1);
    assertThat(client.configMaps().withName("two").get()).isNull();
    assertThat(server.journal().records(RequestMatcher.verb("create").status(409)))
        .singleElement()
        .satisfies(r -> assertThat(r.fault()).contains("409 Conflict"));
  }

  @Test
  void tooManyRequests_carriesRetryAfter_andRemovedRuleStops() throws Exception {
    FaultInjector.Handle rule = onListingConfigMaps(Fault.tooManyRequests(Duration.ofSeconds(3)));
    HttpResponse<String> limited = get("/api/v1/namespaces/default/configmaps");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("3");
    JsonNode status = JSON.readTree(limited.body());
    assertThat(status.path("reason").asText()).isEqualTo("TooManyRequests");
    assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(3);

    rule.remove();
    assertThat(server.faults().rules()).isEmpty();
    assertThat(get("/api/v1/namespaces/default/configmaps").statusCode()).isEqualTo(200);
    assertThat(rule.injected()).isEqualTo(1);
  }

  @Test
  void tooManyRequestsMadeAsAStatus_saysRetryAfterOneSecond_asKubeApiserverDoes() throws Exception {
    onListingConfigMaps(Fault.status(429, "TooManyRequests", "too many requests, slow down"));
    HttpResponse<String> limited = get("/api/v1/namespaces/default/configmaps");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
    JsonNode status = JSON.readTree(limited.body());
    assertThat(status.path("message").asText()).contains("slow down");
    assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);
  }

  @Test
  void serverErrors_timeout_andNamespaceNameScoping() throws Exception {
    server
        .faults()
        .add(
            FaultRule.match()
                .resource("configmaps")
                .namespace("default")
                .name("flaky")
                .inject(Fault.serverError(503)));
    server.faults().add(FaultRule.match().resource("secrets").inject(Fault.timeout()));
    createConfigMap("flaky-not");
    assertThat(get("/api/v1/namespaces/default/configmaps/flaky").statusCode()).isEqualTo(503);
    assertThat(get("/api/v1/namespaces/default/configmaps/flaky-not").statusCode()).isEqualTo(200);
    HttpResponse<String> timeout = get("/api/v1/namespaces/default/secrets");
    assertThat(timeout.statusCode()).isEqualTo(504);
    assertThat(JSON.readTree(timeout.body()).path("reason").asText()).isEqualTo("Timeout");
    assertThat(get("/version").statusCode()).isEqualTo(200);
  }

  @Test
  void ruleNamingNoResource_coversVersionAndDiscovery_unlessKeptToResources() throws Exception {
    FaultInjector.Handle everywhere =
        server.faults().add(FaultRule.match().inject(Fault.status(401, "Unauthorized", "no")));
    for (String path : List.of("/version", "/api", "/api/v1", "/apis", "/apis/apps/v1")) {
      HttpResponse<String> refused = get(path);
      assertThat(refused.statusCode()).as(path).isEqualTo(401);
      assertThat(JSON.readTree(refused.body()).path("reason").asText()).isEqualTo("Unauthorized");
    }
    assertThat(get("/api/v1/namespaces/default/configmaps").statusCode()).isEqualTo(401);
    assertThat(everywhere.injected()).isEqualTo(6);
    assertThat(everywhere.rule().toString()).contains("any resource or path");
    assertThat(server.journal().records().stream().filter(r -> r.path().equals("/version")))
        .singleElement()
        .satisfies(r -> assertThat(r.status()).isEqualTo(401));
    everywhere.remove();

    // A client's preflight sees the refusal too.
    server.faults().add(FaultRule.match().inject(Fault.status(401, "Unauthorized", "no")));
    assertThatThrownBy(client::getKubernetesVersion)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
    server.faults().clear();

    server.faults().add(FaultRule.match().resourceRequestsOnly().inject(Fault.serverError(503)));
    server.faults().add(FaultRule.match().resource("configmaps").inject(Fault.serverError(500)));
    server.faults().add(FaultRule.match().namespace("elsewhere").inject(Fault.serverError(500)));
    server.faults().add(FaultRule.match().inject(Fault.compactHistory()));
    assertThat(get("/version").statusCode()).isEqualTo(200);
    assertThat(get("/apis").statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/default/secrets").statusCode()).isEqualTo(503);
  }

  @Test
  void userAgentCriterion_failsOnlyThatClientsRequests() throws Exception {
    server
        .faults()
        .add(
            FaultRule.match()
                .verbs("list")
                .resource("configmaps")
                .userAgentContaining("candidate-a")
                .inject(Fault.serverError(500)));
    HttpRequest.Builder list =
        HttpRequest.newBuilder(server.url().resolve("/api/v1/namespaces/default/configmaps"));
    HttpResponse<String> fromA =
        http.send(
            list.copy().header("User-Agent", "candidate-a/1.0").build(),
            HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> fromB =
        http.send(
            list.copy().header("User-Agent", "candidate-b/1.0").build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(fromA.statusCode()).isEqualTo(500);
    assertThat(fromB.statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/default/configmaps").statusCode()).isEqualTo(200);
    assertThat(server.faults().rules().get(0).rule().toString()).contains("candidate-a");
    assertThatThrownBy(() -> FaultRule.match().userAgentContaining(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("userAgentContaining");
  }

  @Test
  void probability_isSeeded_andSkipTimesBound() throws Exception {
    FaultInjector.Handle rule =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("get")
                    .resource("namespaces")
                    .skip(5)
                    .times(20)
                    .probability(0.5)
                    .seed(42)
                    .inject(Fault.serverError(500)));
    int failed = 0;
    for (int i = 0; i < 100; i++) {
      int code = get("/api/v1/namespaces/default").statusCode();
      if (i < 5) {
        assertThat(code).isEqualTo(200);
      }
      failed += code == 500 ? 1 : 0;
    }
    assertThat(failed).isEqualTo(20);
    assertThat(rule.injected()).isEqualTo(20);
  }

  @Test
  void fromUntil_followServerClock() throws Exception {
    server
        .faults()
        .add(
            FaultRule.match()
                .resource("namespaces")
                .from(clock.instant().plusSeconds(10))
                .until(clock.instant().plusSeconds(20))
                .inject(Fault.gone()));
    assertThat(get("/api/v1/namespaces").statusCode()).isEqualTo(200);
    clock.advance(Duration.ofSeconds(10));
    assertThat(get("/api/v1/namespaces").statusCode()).isEqualTo(410);
    clock.advance(Duration.ofSeconds(10));
    assertThat(get("/api/v1/namespaces").statusCode()).isEqualTo(200);
  }

  @Test
  void latency_delaysTheAnswer_andComposesWithAStatus() throws Exception {
    server
        .faults()
        .add(FaultRule.match().resource("configmaps").inject(Fault.latency(Duration.ofMillis(80))));
    assertThat(get("/api/v1/namespaces/default/configmaps").statusCode()).isEqualTo(200);
    RequestRecord slow = server.journal().records(RequestMatcher.verb("list")).get(0);
    assertThat(slow.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(80));
    assertThat(slow.fault()).isEqualTo("latency 80 ms");

    server.faults().add(FaultRule.match().resource("configmaps").inject(Fault.timeout()));
    assertThat(get("/api/v1/namespaces/default/configmaps").statusCode()).isEqualTo(504);
  }

  @Test
  void gone_onWatch_andCompactHistory_giveResumingWatchers410() throws Exception {
    ConfigMap cm = createConfigMap("w");
    String rv = cm.getMetadata().getResourceVersion();
    FaultInjector.Handle gone =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("watch")
                    .resource("configmaps")
                    .nth(1)
                    .inject(Fault.gone()));
    assertThat(
            get("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv)
                .statusCode())
        .isEqualTo(410);
    gone.remove();

    createConfigMap("w2");
    server
        .faults()
        .add(
            FaultRule.match()
                .verbs("watch")
                .resource("configmaps")
                .times(1)
                .inject(Fault.compactHistory()));
    try (HttpWatch watch =
        new HttpWatch(
            server.url(),
            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv)) {
      JsonNode error = watch.next();
      assertThat(error.path("type").asText()).isEqualTo("ERROR");
      assertThat(error.path("object").path("code").asInt()).isEqualTo(410);
      assertThat(watch.awaitEnd()).isTrue();
    }
  }

  @Test
  void dropWatch_endsNewStream_andDropWatchesEndsOpenOnes() throws Exception {
    server
        .faults()
        .add(
            FaultRule.match()
                .verbs("watch")
                .resource("configmaps")
                .nth(1)
                .inject(Fault.dropWatch()));
    try (HttpWatch dropped =
        new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true")) {
      assertThat(dropped.awaitEnd()).isTrue();
    }
    try (HttpWatch open =
            new HttpWatch(server.url(), "/api/v1/namespaces/default/secrets?watch=true");
        HttpWatch other =
            new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true")) {
      createConfigMap("seen");
      assertThat(other.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("seen");
      assertThat(server.faults().dropWatches("secrets")).isEqualTo(1);
      assertThat(open.awaitEnd()).isTrue();
      createConfigMap("still-seen");
      assertThat(other.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("still-seen");
    }
  }

  @Test
  void cutResponse_breaksAnAnswerHalfway_andAWatchAtItsNextEvent() throws Exception {
    createConfigMap("listed");
    server
        .faults()
        .add(
            FaultRule.match()
                .verbs("list", "watch")
                .resource("configmaps")
                .inject(Fault.cutResponse()));

    assertThatThrownBy(() -> get("/api/v1/namespaces/default/configmaps"))
        .isInstanceOf(java.io.IOException.class);
    try (HttpWatch watch =
        new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true")) {
      createConfigMap("cut");
      assertThat(watch.awaitEnd()).as("the stream broke").isTrue();
      assertThat(watch.isEmpty()).as("no whole event arrived").isTrue();
    }
    assertThat(server.journal().records(RequestMatcher.verb("list", "watch")))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.fault()).isEqualTo("cut response"));
  }

  @Test
  void holdEvents_onOpenWatch_releasesInOrderWhenRemoved() throws Exception {
    try (HttpWatch watch =
        new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true")) {
      createConfigMap("before");
      assertThat(watch.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("before");
      FaultInjector.Handle hold =
          server.faults().add(FaultRule.match().resource("configmaps").inject(Fault.holdEvents()));
      createConfigMap("held-1");
      createConfigMap("held-2");
      assertThat(hold.injected()).isEqualTo(2);
      assertThat(watch.isEmpty()).isTrue();
      hold.remove();
      assertThat(watch.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("held-1");
      assertThat(watch.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("held-2");
    }
  }

  @Test
  void delayEvents_deliversAfterDelayOnServerClock() throws Exception {
    try (HttpWatch watch =
        new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true")) {
      server
          .faults()
          .add(
              FaultRule.match()
                  .resource("configmaps")
                  .inject(Fault.delayEvents(Duration.ofSeconds(5))));
      createConfigMap("late");
      clock.advance(Duration.ofSeconds(4));
      assertThat(watch.isEmpty()).isTrue();
      clock.advance(Duration.ofSeconds(1));
      assertThat(watch.next().path("object").path("metadata").path("name").asText())
          .isEqualTo("late");
    }
  }

  @Test
  void userAgentContaining_scopesEventFaults_andDropWatches() throws Exception {
    FaultInjector.Handle hold =
        server
            .faults()
            .add(
                FaultRule.match()
                    .resource("configmaps")
                    .userAgentContaining("instance-a")
                    .inject(Fault.holdEvents()));
    String path = "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=";
    String from = Long.toString(server.resourceVersion());
    try (HttpWatch a = new HttpWatch(server.url(), path + from, "op/instance-a");
        HttpWatch b = new HttpWatch(server.url(), path + from, "op/instance-b")) {
      createConfigMap("c");
      assertThat(b.next().path("object").path("metadata").path("name").asText()).isEqualTo("c");
      assertThat(hold.injected()).isEqualTo(1);
      assertThat(a.isEmpty()).isTrue();
      assertThat(server.faults().dropWatches("configmaps", "instance-a")).isEqualTo(1);
      assertThat(a.awaitEnd()).isTrue();
      createConfigMap("d");
      assertThat(b.next().path("object").path("metadata").path("name").asText()).isEqualTo("d");
    }
    assertThat(server.faults().rules().get(0).rule().toString())
        .contains("user agent containing \"instance-a\"");
    assertThatThrownBy(() -> FaultRule.match().userAgentContaining(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("userAgentContaining");
  }

  @Test
  void rules_rejectBadArguments() {
    assertThatThrownBy(() -> FaultRule.match().verbs("frobnicate"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("frobnicate");
    assertThatThrownBy(() -> FaultRule.match().probability(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("probability");
    assertThatThrownBy(() -> FaultRule.match().nth(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nth");
    assertThatThrownBy(() -> Fault.serverError(404))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("404");
    assertThatThrownBy(() -> Fault.latency(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("latency");
  }
}
