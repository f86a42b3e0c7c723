package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The request journal: what it records and its assertion helpers. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestJournalTest {

  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeAll
  void start() {
    server = FakeApiServer.start();
    client = server.client();
  }

  @AfterAll
  void stop() {
    server.close();
  }

  private void createConfigMap(String name) {
    client
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

  @Test
  void records_verbResourceNamespaceNameStatusAndUserAgent() {
    RequestJournal journal = server.journal();
    RequestJournal.Mark mark = journal.mark();
    createConfigMap("recorded");
    client.configMaps().withName("recorded").get();
    client.configMaps().withName("absent").get();
    client.configMaps().list();
    client.configMaps().withName("recorded").edit(c -> c);
    client.configMaps().withName("recorded").delete();

    List<RequestRecord> records = journal.records(RequestMatcher.any().since(mark));
    assertThat(records)
        .extracting(RequestRecord::verb)
        .containsSubsequence("create", "get", "get", "list", "delete");
    RequestRecord create = records.get(0);
    assertThat(create.method()).isEqualTo("POST");
    assertThat(create.resource()).isEqualTo("configmaps");
    assertThat(create.group()).isEmpty();
    assertThat(create.namespace()).isEqualTo("default");
    assertThat(create.name())
        .as("the created object's name, from the answer")
        .isEqualTo("recorded");
    assertThat(create.status()).isEqualTo(201);
    assertThat(create.userAgent()).contains("fabric8");
    assertThat(create.isWrite()).isTrue();
    assertThat(create.duration().isNegative()).isFalse();
    assertThat(create.fault()).isNull();
    assertThat(journal.records(RequestMatcher.verb("get").name("absent").since(mark)))
        .singleElement()
        .extracting(RequestRecord::status)
        .isEqualTo(404);
    assertThat(journal.count(RequestMatcher.verb("get").status(200).since(mark)))
        .isGreaterThanOrEqualTo(1);
    assertThat(create.toString()).contains("create configmaps default/recorded -> 201");
  }

  @Test
  void create_recordsTheNameTheServerGenerated_andNoNameWhenRefused() {
    RequestJournal journal = server.journal();
    RequestJournal.Mark mark = journal.mark();
    String generated =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withGenerateName("gen-")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getName();
    createConfigMap("taken");
    assertThatThrownBy(() -> createConfigMap("taken")).hasMessageContaining("409");

    assertThat(journal.records(RequestMatcher.verb("create").since(mark)))
        .extracting(RequestRecord::name, RequestRecord::status)
        .containsExactly(
            Tuple.tuple(generated, 201), Tuple.tuple("taken", 201), Tuple.tuple(null, 409));
    assertThat(generated).startsWith("gen-");
    assertThat(journal.count(RequestMatcher.verb("create").name(generated).since(mark)))
        .isEqualTo(1);
  }

  @Test
  void assertCount_exactCreates_andAssertNone_sinceMark() {
    RequestJournal journal = server.journal();
    RequestJournal.Mark mark = journal.mark();
    createConfigMap("a1");
    createConfigMap("a2");
    createConfigMap("a3");
    journal.assertCount(RequestMatcher.verb("create").resource("configmaps").since(mark), 3);
    assertThatThrownBy(
            () ->
                journal.assertCount(
                    RequestMatcher.verb("create").resource("configmaps").since(mark), 2))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected 2")
        .hasMessageContaining("found 3")
        .hasMessageContaining("create configmaps default/a1");

    RequestJournal.Mark quiet = journal.mark();
    client.configMaps().withName("a1").get();
    journal.assertNone(RequestMatcher.writes().since(quiet));
    client.configMaps().withName("a1").delete();
    assertThatThrownBy(() -> journal.assertNone(RequestMatcher.writes().since(quiet)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("delete configmaps default/a1");
  }

  @Test
  void discoveryRequests_haveNoResource_andClearKeepsMarksValid() {
    RequestJournal journal = server.journal();
    client.getKubernetesVersion();
    RequestRecord version = journal.records().get(journal.records().size() - 1);
    assertThat(version.path()).isEqualTo("/version");
    assertThat(version.resource()).isNull();
    assertThat(version.verb()).isEqualTo("get");

    RequestJournal.Mark mark = journal.mark();
    journal.clear();
    assertThat(journal.records()).isEmpty();
    createConfigMap("after-clear");
    assertThat(journal.records(RequestMatcher.any().since(mark))).hasSize(1);
    assertThat(journal.mark().sequence()).isEqualTo(mark.sequence() + 1);
  }
}
