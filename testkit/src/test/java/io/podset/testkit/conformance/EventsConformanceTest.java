package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Events are one store served by two APIs: an Event written through events.k8s.io/v1 is read
 * through core/v1 with the fields renamed, and back; field selectors use each API's names.
 */
class EventsConformanceTest extends ConformanceTestBase {

  private String eventsV1() {
    return "/apis/events.k8s.io/v1/namespaces/" + ns + "/events";
  }

  private String coreEvents() {
    return "/api/v1/namespaces/" + ns + "/events";
  }

  @Test
  void eventsV1Event_isReadThroughCoreV1() {
    create(
        eventsV1(),
        "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"new-api\"},"
            + "\"eventTime\":\"2026-01-02T03:04:05.000000Z\",\"reportingController\":\"example.com/ctl\","
            + "\"reportingInstance\":\"ctl-1\",\"action\":\"Scale\",\"reason\":\"Scaled\","
            + "\"type\":\"Normal\",\"note\":\"scaled to 3\",\"regarding\":{\"apiVersion\":\"apps/v1\","
            + "\"kind\":\"Deployment\",\"namespace\":\""
            + ns
            + "\",\"name\":\"web\"}}");

    JsonNode core = get(coreEvents() + "/new-api").body();

    assertThat(core.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(core.path("message").asText()).isEqualTo("scaled to 3");
    assertThat(core.path("reason").asText()).isEqualTo("Scaled");
    assertThat(core.path("reportingComponent").asText()).isEqualTo("example.com/ctl");
    assertThat(core.path("reportingInstance").asText()).isEqualTo("ctl-1");
    assertThat(core.path("action").asText()).isEqualTo("Scale");
    assertThat(core.path("involvedObject").path("kind").asText()).isEqualTo("Deployment");
    assertThat(core.path("involvedObject").path("name").asText()).isEqualTo("web");
    assertThat(core.path("eventTime").asText()).isEqualTo("2026-01-02T03:04:05.000000Z");
    assertThat(core.has("note")).isFalse();
  }

  @Test
  void coreV1Event_isReadThroughEventsV1_andSelectedByItsFieldNames() {
    create(
        coreEvents(),
        "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"old-api\"},"
            + "\"involvedObject\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"namespace\":\""
            + ns
            + "\",\"name\":\"web-1\"},\"reason\":\"Started\",\"message\":\"started\","
            + "\"type\":\"Normal\",\"count\":2,\"source\":{\"component\":\"kubelet\"},"
            + "\"firstTimestamp\":\"2026-01-02T03:04:05Z\",\"lastTimestamp\":\"2026-01-02T03:05:05Z\"}");

    JsonNode event = get(eventsV1() + "/old-api").body();

    assertThat(event.path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
    assertThat(event.path("note").asText()).isEqualTo("started");
    assertThat(event.path("regarding").path("name").asText()).isEqualTo("web-1");
    assertThat(event.path("deprecatedCount").asInt()).isEqualTo(2);
    assertThat(event.path("deprecatedSource").path("component").asText()).isEqualTo("kubelet");
    assertThat(event.path("deprecatedFirstTimestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(event.has("message")).isFalse();

    Raw selected = get(eventsV1() + "?fieldSelector=regarding.name%3Dweb-1");
    assertThat(selected.body().path("items"))
        .extracting(i -> i.path("metadata").path("name").asText())
        .containsExactly("old-api");
    Raw none = get(eventsV1() + "?fieldSelector=regarding.name%3Dother");
    assertThat(none.body().path("items")).isEmpty();
    Raw coreList = raw("GET", coreEvents(), null, null, Map.of());
    assertThat(coreList.body().path("items"))
        .extracting(i -> i.path("metadata").path("name").asText())
        .contains("old-api");
  }
}
