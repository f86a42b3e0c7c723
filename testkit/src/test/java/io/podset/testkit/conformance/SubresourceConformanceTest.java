package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SubresourceConformanceTest extends ConformanceTestBase {

  @Test
  void scale_readsSpecAndStatusPaths() {
    createWidget("scale-read", 2);
    widgets()
        .withName("scale-read")
        .editStatus(
            w -> {
              w.setAdditionalProperty("status", Map.of("replicas", 1, "selector", "app=w"));
              return w;
            });
    Scale scale = widgets().withName("scale-read").scale();
    assertThat(scale.getSpec().getReplicas()).isEqualTo(2);
    assertThat(scale.getStatus().getReplicas()).isEqualTo(1);
    assertThat(scale.getStatus().getSelector()).isEqualTo("app=w");
  }

  @Test
  void scale_writesSpecReplicasAndBumpsGeneration() {
    createWidget("scale-write", 1);
    widgets().withName("scale-write").scale(4);
    GenericKubernetesResource w = widgets().withName("scale-write").get();
    assertThat(mapOf(w, "spec").get("replicas")).isEqualTo(4);
    assertThat(w.getMetadata().getGeneration()).isEqualTo(2);
  }

  @Test
  void scale_mergePatch_changesReplicas() {
    createWidget("scale-patch", 1);
    Raw raw =
        raw(
            "PATCH",
            widgetsPath() + "/scale-patch/scale",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":6}}",
            Map.of());
    assertThat(raw.code()).isEqualTo(200);
    assertThat(raw.body().path("kind").asText()).isEqualTo("Scale");
    assertThat(raw.body().path("spec").path("replicas").asInt()).isEqualTo(6);
  }

  @Test
  void scale_concurrentPatches_eachAnswerIsItsOwnWrite() throws Exception {
    createWidget("scale-race", 1);
    int threads = 4;
    int writes = 25; // replicas 1 to 100: the widget schema caps them at 100
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = 1 + t * writes;
        results.add(
            pool.submit(
                () -> {
                  List<String> mismatches = new ArrayList<>();
                  for (int replicas = first; replicas < first + writes; replicas++) {
                    Raw raw =
                        raw(
                            "PATCH",
                            widgetsPath() + "/scale-race/scale",
                            "application/merge-patch+json",
                            "{\"spec\":{\"replicas\":" + replicas + "}}",
                            Map.of());
                    int answered = raw.body().path("spec").path("replicas").asInt();
                    if (raw.code() != 200 || answered != replicas) {
                      mismatches.add(replicas + " answered " + raw.code() + " " + answered);
                    }
                  }
                  return mismatches;
                }));
      }
      List<String> mismatches = new ArrayList<>();
      for (Future<List<String>> result : results) {
        mismatches.addAll(result.get(120, TimeUnit.SECONDS));
      }
      assertThat(mismatches).as("answers showing another write's replicas").isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void scale_negativeReplicas_is422() {
    createWidget("scale-negative", 1);
    Raw raw =
        raw(
            "PATCH",
            widgetsPath() + "/scale-negative/scale",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":-1}}",
            Map.of());
    assertThat(raw.code()).isEqualTo(422);
  }

  @Test
  void jsonPatch_andMergePatch_onMainResource() {
    createWidget("patches", 1);
    Raw merge =
        raw(
            "PATCH",
            widgetsPath() + "/patches",
            "application/merge-patch+json",
            "{\"spec\":{\"note\":\"hi\"}}",
            Map.of());
    assertThat(merge.code()).isEqualTo(200);
    assertThat(merge.body().path("spec").path("note").asText()).isEqualTo("hi");
    Raw json =
        raw(
            "PATCH",
            widgetsPath() + "/patches",
            "application/json-patch+json",
            "[{\"op\":\"test\",\"path\":\"/spec/note\",\"value\":\"hi\"},{\"op\":\"remove\",\"path\":\"/spec/note\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":7}]",
            Map.of());
    assertThat(json.code()).isEqualTo(200);
    assertThat(json.body().path("spec").has("note")).isFalse();
    assertThat(json.body().path("spec").path("replicas").asInt()).isEqualTo(7);
    Raw failedTest =
        raw(
            "PATCH",
            widgetsPath() + "/patches",
            "application/json-patch+json",
            "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1}]",
            Map.of());
    assertThat(failedTest.code()).isEqualTo(422);
  }
}
