package io.podset.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.client.LocalHttpServer;
import io.podset.runtime.informer.Awaits;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.reconcile.ObjectReconciler;
import io.podset.runtime.reconcile.PrimaryGoneException;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.time.ManualClock;
import io.podset.runtime.workqueue.RateLimiters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A typed controller's creates for a primary its cache still shows but the server deleted: counted
 * at the HTTP server, which journals every request the controller sends.
 */
class PrimaryConfirmationTest {

  private static final String PRIMARY = "GET /apis/apps/v1/namespaces/ns/replicasets/web";
  private static final String CREATE = "POST /api/v1/namespaces/ns/configmaps";
  private static final String APPLY = "PATCH /api/v1/namespaces/ns/configmaps/web-config";

  private final KubernetesSerialization json = new KubernetesSerialization();
  private final ManualClock clock = new ManualClock();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final FakeInformerFactory informers = new FakeInformerFactory();
  private final FakeInformer<ReplicaSet> replicaSets = informers.fake(ReplicaSet.class);
  private final FakeInformer<ConfigMap> configMaps = informers.fake(ConfigMap.class);
  private final List<String> journal = new CopyOnWriteArrayList<>();
  private final List<String> outcomes = new CopyOnWriteArrayList<>();
  private final AtomicLong resourceVersions = new AtomicLong(100);
  // What the server holds under ns/web: null once deleted.
  private volatile ReplicaSet onServer;
  private LocalHttpServer server;
  private Controller controller;

  @AfterEach
  void close() {
    if (controller != null) {
      controller.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void create_whileThePrimaryCacheDoesNotFollow_confirmsThePrimary_andCreatesNothingForTheDead()
      throws Exception {
    start(creating("web-config"));
    replicaSets.following(false); // its watch re-opening, say: the deletion is not in yet
    onServer = null; // deleted on the server

    replicaSets.add(replicaSet("uid-1"));

    awaitReconciles("success", 1);
    assertThat(journal).containsExactly(PRIMARY);
    assertThat(outcomes).containsExactly("gone");
    assertThat(count("error")).isZero(); // done, forgotten: no retry
  }

  @Test
  void apply_ofANewObject_whileACacheMetAFault_confirmsThePrimary_andAppliesNothingForTheDead()
      throws Exception {
    start(
        (primary, context) -> {
          try {
            context.apply(configMap("web-config"));
            outcomes.add("applied");
          } catch (PrimaryGoneException e) {
            outcomes.add("gone");
            throw e;
          }
          return Result.done();
        });
    configMaps.faulted(true); // a failed watch of the owned type: the server is in trouble
    onServer = replicaSet("uid-2"); // deleted and created again under the same name

    replicaSets.add(replicaSet("uid-1"));

    awaitReconciles("success", 1);
    assertThat(journal).containsExactly(PRIMARY);
    assertThat(outcomes).containsExactly("gone");
    assertThat(count("error")).isZero();
  }

  @Test
  void create_whileTheCachesFollowWithoutFaults_sendsOnlyTheCreate() throws Exception {
    start(creating("web-config"));
    onServer = replicaSet("uid-1");

    replicaSets.add(replicaSet("uid-1"));

    awaitReconciles("success", 1);
    assertThat(journal).containsExactly(CREATE);
    assertThat(outcomes).containsExactly("created web-config");
  }

  @Test
  void create_onTheRetryOfAFailedPass_confirmsThePrimaryOnce_andTheNextPassDoesNot()
      throws Exception {
    AtomicInteger passes = new AtomicInteger();
    ObjectReconciler<ReplicaSet> twoConfigMaps = creating("web-a", "web-b");
    start(
        (primary, context) -> {
          if (passes.incrementAndGet() == 1) {
            // Not a fault of the server's: only this request's next pass is a retry.
            throw new IllegalStateException("the first pass fails");
          }
          return twoConfigMaps.reconcile(primary, context);
        });
    onServer = replicaSet("uid-1");

    replicaSets.add(replicaSet("uid-1"));
    awaitReconciles("error", 1);
    assertThat(journal).isEmpty();
    clock.advance(Duration.ofMillis(5)); // the retry's backoff

    awaitReconciles("success", 1);
    assertThat(journal).containsExactly(PRIMARY, CREATE, CREATE);

    configMaps.observe(resourceVersions.get()); // the creates' echo: read-your-writes lets it in
    replicaSets.update(replicaSet("uid-1"), withGeneration(replicaSet("uid-1"), 2));
    awaitReconciles("success", 2);
    assertThat(journal).containsExactly(PRIMARY, CREATE, CREATE, CREATE, CREATE);
  }

  private ObjectReconciler<ReplicaSet> creating(String... names) {
    return (primary, context) -> {
      for (String name : names) {
        create(context, name);
      }
      return Result.done();
    };
  }

  private void create(Context<ReplicaSet> context, String name) {
    try {
      context.create(configMap(name));
      outcomes.add("created " + name);
    } catch (PrimaryGoneException e) {
      outcomes.add("gone");
      throw e;
    }
  }

  private void start(ObjectReconciler<ReplicaSet> reconciler) throws IOException {
    server = LocalHttpServer.start(2, this::answer);
    List<Supplier<Controller>> registered = new ArrayList<>();
    ObjectControllerBuilder.create(
            ReplicaSet.class,
            server.client(),
            EventRecorder.noop(),
            () ->
                Controllers.builder(informers)
                    .clock(clock)
                    .meterRegistry(metrics)
                    .rateLimiter(
                        RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000))),
            registered::add)
        .named("test")
        .owns(ConfigMap.class)
        .reconcile(reconciler);
    replicaSets.sync();
    configMaps.sync();
    controller = registered.get(0).get();
    controller.start();
  }

  /** The API server: GET of the primary as {@link #onServer} says, creates and applies echoed. */
  private void answer(HttpExchange exchange) throws IOException {
    String request = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
    journal.add(request);
    byte[] body = exchange.getRequestBody().readAllBytes();
    ReplicaSet primary = onServer;
    if (request.equals(PRIMARY) && primary != null) {
      respond(exchange, 200, json.asJson(primary));
    } else if (request.equals(CREATE) || request.equals(APPLY)) {
      ConfigMap written = json.unmarshal(new String(body, StandardCharsets.UTF_8), ConfigMap.class);
      written.getMetadata().setUid("uid-" + written.getMetadata().getName());
      written.getMetadata().setResourceVersion(Long.toString(resourceVersions.incrementAndGet()));
      respond(exchange, request.equals(CREATE) ? 201 : 200, json.asJson(written));
    } else {
      respond(
          exchange,
          404,
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
              + "\"reason\":\"NotFound\",\"code\":404}");
    }
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private void awaitReconciles(String result, int count) {
    Awaits.until(() -> count(result) >= count, count + " reconciles with result " + result);
    assertThat(count(result)).as("reconciles with result " + result).isEqualTo(count);
  }

  private double count(String result) {
    Counter counter = metrics.find("controller_runtime_reconcile").tag("result", result).counter();
    return counter == null ? 0 : counter.count();
  }

  private static ReplicaSet replicaSet(String uid) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("web")
        .withUid(uid)
        .withGeneration(1L)
        .withResourceVersion("1")
        .endMetadata()
        .build();
  }

  private static ReplicaSet withGeneration(ReplicaSet replicaSet, long generation) {
    ReplicaSet next = new ReplicaSetBuilder(replicaSet).build();
    next.getMetadata().setGeneration(generation);
    next.getMetadata().setResourceVersion(Long.toString(generation));
    return next;
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }
}
