package io.podset.runtime.informer.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.client.LocalHttpServer;
import io.podset.runtime.informer.Awaits;
import io.podset.runtime.informer.InformerOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The streaming, pipelined pager against a minimal HTTP server serving scripted pages. */
class HttpListPagerIT {

  private LocalHttpServer server;
  private KubernetesClient client;
  private final List<String> queries = new CopyOnWriteArrayList<>();
  // Continue token ("" for the first page) -> what the server answers.
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();

  /** One scripted answer: the head, then the items, perhaps cut in the middle. */
  private record Answer(int code, String head, String items, boolean cut) {
    static Answer status(int code, String body) {
      return new Answer(code, body, "", false);
    }

    static Answer page(String rv, String next, String items) {
      String meta =
          "{\"resourceVersion\":\""
              + rv
              + "\""
              + (next == null ? "" : ",\"continue\":\"" + next + "\"")
              + "}";
      return new Answer(
          200,
          "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":" + meta + ",",
          items,
          false);
    }

    Answer cutInTheItems() {
      return new Answer(code, head, items, true);
    }
  }

  @BeforeEach
  void startServer() throws IOException {
    server = LocalHttpServer.start(4, this::handle);
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String decoded = query == null ? "" : URLDecoder.decode(query, UTF_8);
    queries.add(exchange.getRequestURI().getPath() + "?" + decoded);
    String token = "";
    for (String param : decoded.split("&")) {
      if (param.startsWith("continue=")) {
        token = param.substring("continue=".length());
      }
    }
    Answer answer = answers.get(token);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (answer == null) {
      answer = Answer.status(500, "{\"kind\":\"Status\",\"code\":500,\"message\":\"no script\"}");
    }
    exchange.sendResponseHeaders(answer.code(), 0);
    OutputStream out = exchange.getResponseBody();
    out.write(answer.head().getBytes(UTF_8));
    out.flush();
    if (answer.cut()) {
      // The body ends in the middle of the items.
      out.write(answer.items().substring(0, answer.items().length() / 2).getBytes(UTF_8));
      exchange.close();
      return;
    }
    out.write(answer.items().getBytes(UTF_8));
    out.close();
  }

  private static String items(String... names) {
    List<String> pods = new ArrayList<>();
    for (String name : names) {
      pods.add(
          "{\"metadata\":{\"name\":\""
              + name
              + "\",\"namespace\":\"ns\",\"resourceVersion\":\"5\"}}");
    }
    return "\"items\":[" + String.join(",", pods) + "]}";
  }

  private HttpListPager<Pod> pager() {
    return pager(Pod.class, false);
  }

  private <T extends HasMetadata> HttpListPager<T> pager(Class<T> type, boolean dropManaged) {
    return new HttpListPager<>(
        client.getHttpClient(),
        Transports.collectionUrl(client, "", "v1", "pods", null),
        "v1",
        new Selection(null, "app=web", null),
        60_000,
        client.getKubernetesSerialization(),
        type,
        dropManaged,
        null);
  }

  private static List<String> names(ListPage<? extends HasMetadata> page) {
    return page.items().stream().map(p -> p.getMetadata().getName()).toList();
  }

  @Test
  void list_requestsTheNextPageBeforeItIsAskedFor_andServesItFromThatRequest() {
    answers.put("", Answer.page("10", "t1", items("a", "b")));
    answers.put("t1", Answer.page("10", "t2", items("c")));
    answers.put("t2", Answer.page("10", null, items("d")));
    HttpListPager<Pod> pager = pager();

    ListPage<Pod> first = pager.list(new ListRequest("0", 2, null));
    // Page 2 was requested while page 1 was decoded, before anyone asked for it.
    assertThat(pager.hasRequestAhead()).isTrue();
    Awaits.until(() -> queries.size() == 2, "the request for page 2");
    ListPage<Pod> second = pager.list(new ListRequest("", 2, "t1"));
    ListPage<Pod> third = pager.list(new ListRequest("", 2, "t2"));

    assertThat(names(first)).containsExactly("a", "b");
    assertThat(first.continueToken()).isEqualTo("t1");
    assertThat(first.resourceVersion()).isEqualTo("10");
    assertThat(names(second)).containsExactly("c");
    assertThat(names(third)).containsExactly("d");
    assertThat(third.hasMore()).isFalse();
    assertThat(first.items().get(0).getApiVersion()).isEqualTo("v1");
    assertThat(queries).hasSize(3);
    assertThat(queries.get(0))
        .startsWith("/api/v1/pods?")
        .contains("limit=2", "resourceVersion=0", "labelSelector=app=web")
        .doesNotContain("continue");
    assertThat(queries.get(1)).contains("limit=2", "continue=t1").doesNotContain("resourceVersion");
    assertThat(queries.get(2)).contains("continue=t2");
    assertThat(pager.hasRequestAhead()).isFalse();
  }

  @Test
  void latestResourceVersion_isAQuorumListOfOne_thatLeavesAListInProgressAlone() {
    answers.put("", Answer.page("10", "t1", items("a", "b")));
    answers.put("t1", Answer.page("10", null, items("c")));
    HttpListPager<Pod> pager = pager();
    pager.list(new ListRequest("0", 2, null));
    Awaits.until(() -> queries.size() == 2, "the request for page 2");

    answers.put("", Answer.page("17", "t9", items("a")));
    assertThat(pager.latestResourceVersion()).isEqualTo("17");

    assertThat(queries.get(2)).contains("limit=1").doesNotContain("resourceVersion", "continue");
    assertThat(pager.hasRequestAhead())
        .as("page 2 still ahead, no page sent for the probe")
        .isTrue();
    assertThat(names(pager.list(new ListRequest("", 2, "t1")))).containsExactly("c");
    assertThat(queries).hasSize(3);
  }

  @Test
  void list_expiredContinueToken_failsThatPageWithTheServersGoneStatus() {
    answers.put("", Answer.page("10", "t1", items("a")));
    answers.put(
        "t1",
        Answer.status(
            410,
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410,"
                + "\"reason\":\"Expired\",\"message\":\"The provided continue parameter is too old\"}"));
    HttpListPager<Pod> pager = pager();
    pager.list(new ListRequest("0", 1, null));

    assertThatThrownBy(() -> pager.list(new ListRequest("", 1, "t1")))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(410);
              // What the reflector reads as Gone, then relists from quorum (ReflectorTest).
              assertThat(e.getStatus().getReason()).isEqualTo("Expired");
              assertThat(e.getMessage()).contains("too old");
            });
    assertThat(pager.hasRequestAhead()).isFalse();
  }

  @Test
  void list_bodyCutInTheItems_failsAndDropsTheRequestAhead() {
    answers.put("", Answer.page("10", "t1", items("a")));
    answers.put("t1", Answer.page("10", "t2", items("b")).cutInTheItems());
    answers.put("t2", Answer.page("10", null, items("c")));
    HttpListPager<Pod> pager = pager();
    pager.list(new ListRequest("0", 1, null));

    assertThatThrownBy(() -> pager.list(new ListRequest("", 1, "t1")))
        .isInstanceOf(KubernetesClientException.class);
    assertThat(pager.hasRequestAhead()).isFalse();
  }

  @Test
  void list_ofAnotherPageThanTheOneAhead_dropsItAndSendsItsOwnRequest() {
    answers.put("", Answer.page("10", "t1", items("a")));
    answers.put("t1", Answer.page("10", null, items("b")));
    HttpListPager<Pod> pager = pager();
    pager.list(new ListRequest("0", 1, null));
    Awaits.until(() -> queries.size() == 2, "the request ahead");

    ListPage<Pod> again = pager.list(new ListRequest("", 1, null));

    assertThat(names(again)).containsExactly("a");
    assertThat(queries.get(2)).doesNotContain("continue").doesNotContain("resourceVersion");
    // The new first page has sent its own request ahead again.
    assertThat(pager.hasRequestAhead()).isTrue();
    Awaits.until(() -> queries.size() == 4, "the new request ahead");
    assertThat(queries.get(3)).contains("continue=t1");
    pager.abandon();
    assertThat(pager.hasRequestAhead()).isFalse();
  }

  @Test
  void list_serverError_isAClientExceptionWithTheCode() {
    answers.put("", Answer.status(503, "upstream unavailable"));

    assertThatThrownBy(() -> pager().list(new ListRequest("0", 1, null)))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(503);
              assertThat(e.getMessage()).contains("upstream unavailable");
            });
  }

  @Test
  void droppingManagedFields_equalsDecodingThenStripping_andKeepsThoseOfNestedTemplates() {
    String managed =
        "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Update\",\"fieldsType\":"
            + "\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:replicas\":{}}}}]";
    String deployments =
        "\"items\":["
            + "{\"metadata\":{\"name\":\"full\",\"namespace\":\"ns\","
            + managed
            + ",\"labels\":{\"a\":\"b\"}},\"spec\":{\"replicas\":2,\"template\":{\"metadata\":{"
            + managed
            + "}}},\"extra\":{\"kept\":true}},"
            + "{\"metadata\":{\"name\":\"empty\",\"namespace\":\"ns\",\"managedFields\":[]}},"
            + "{\"metadata\":{\"name\":\"null\",\"namespace\":\"ns\",\"managedFields\":null}},"
            + "{\"metadata\":{\"name\":\"absent\",\"namespace\":\"ns\"}}]}";
    answers.put(
        "",
        new Answer(
            200,
            "{\"kind\":\"DeploymentList\",\"apiVersion\":\"apps/v1\",\"metadata\":"
                + "{\"resourceVersion\":\"3\"},",
            deployments,
            false));

    List<Deployment> skipped =
        pager(Deployment.class, true).list(new ListRequest("0", 10, null)).items();
    List<Deployment> stripped =
        pager(Deployment.class, false).list(new ListRequest("0", 10, null)).items();
    stripped.forEach(InformerOptions.stripManagedFields()::apply);

    assertThat(skipped).isEqualTo(stripped);
    assertThat(skipped.get(0).getMetadata().getManagedFields()).isNull();
    assertThat(skipped.get(0).getSpec().getTemplate().getMetadata().getManagedFields()).hasSize(1);
    assertThat(skipped.get(0).getAdditionalProperties()).containsKey("extra");
    assertThat(skipped.get(1).getMetadata().getManagedFields()).isEmpty();
    assertThat(skipped.get(3).getMetadata().getManagedFields()).isEmpty();
  }
}
