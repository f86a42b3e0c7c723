package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WatchConformanceTest extends ConformanceTestBase {

  private String labelled(String label) {
    return widgetsPath() + "?watch=true&labelSelector=suite%3D" + label;
  }

  private GenericKubernetesResource createLabelled(String name, String label) {
    GenericKubernetesResource w = widget(name, 1);
    w.getMetadata().setLabels(Map.of("suite", label));
    return widgets().resource(w).create();
  }

  @Test
  void watch_fromZero_sendsSyntheticAddedThenChanges() {
    createLabelled("zero-a", "zero");
    try (WatchStream watch = new WatchStream(labelled("zero") + "&resourceVersion=0")) {
      JsonNode first = watch.nextChange();
      assertThat(type(first)).isEqualTo("ADDED");
      assertThat(name(first)).isEqualTo("zero-a");
      createLabelled("zero-b", "zero");
      JsonNode second = watch.nextChange();
      assertThat(type(second) + ":" + name(second)).isEqualTo("ADDED:zero-b");
      widgets().withName("zero-a").delete();
      JsonNode third = watch.nextChange();
      assertThat(type(third) + ":" + name(third)).isEqualTo("DELETED:zero-a");
    }
  }

  @Test
  void watch_fromResourceVersion_sendsOnlyLaterChanges() {
    GenericKubernetesResource a = createLabelled("resume-a", "resume");
    widgets()
        .withName("resume-a")
        .edit(
            w -> {
              mapOf(w, "spec").put("replicas", 5);
              return w;
            });
    createLabelled("resume-b", "resume");
    try (WatchStream watch =
        new WatchStream(
            labelled("resume") + "&resourceVersion=" + a.getMetadata().getResourceVersion())) {
      JsonNode first = watch.nextChange();
      assertThat(type(first) + ":" + name(first)).isEqualTo("MODIFIED:resume-a");
      assertThat(first.path("object").path("spec").path("replicas").asInt()).isEqualTo(5);
      JsonNode second = watch.nextChange();
      assertThat(type(second) + ":" + name(second)).isEqualTo("ADDED:resume-b");
    }
  }

  @Test
  void watch_labelSelector_reportsEnteringAsAddedAndLeavingAsDeleted() {
    long from = rv(createWidget("mover", 1));
    try (WatchStream watch = new WatchStream(labelled("mover") + "&resourceVersion=" + from)) {
      widgets()
          .withName("mover")
          .edit(
              w -> {
                w.getMetadata().setLabels(Map.of("suite", "mover"));
                return w;
              });
      JsonNode entered = watch.nextChange();
      assertThat(type(entered) + ":" + name(entered)).isEqualTo("ADDED:mover");
      widgets()
          .withName("mover")
          .edit(
              w -> {
                w.getMetadata().setLabels(Map.of("suite", "elsewhere"));
                return w;
              });
      JsonNode left = watch.nextChange();
      assertThat(type(left) + ":" + name(left)).isEqualTo("DELETED:mover");
      createLabelled("mover-2", "mover");
      JsonNode next = watch.nextChange();
      assertThat(type(next) + ":" + name(next)).isEqualTo("ADDED:mover-2");
    }
  }

  @Test
  void watch_timeoutSeconds_endsTheStream() throws InterruptedException {
    try (WatchStream watch = new WatchStream(labelled("timeout") + "&timeoutSeconds=1")) {
      assertThat(watch.awaitEnd(15)).as("stream ended by the server").isTrue();
    }
  }

  @Test
  void watch_sendInitialEvents_endsInitialStateWithAnnotatedBookmark() {
    GenericKubernetesResource a = createLabelled("initial-a", "initial");
    try (WatchStream watch =
        new WatchStream(
            labelled("initial")
                + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
      JsonNode added = watch.nextChange();
      assertThat(type(added) + ":" + name(added)).isEqualTo("ADDED:initial-a");
      JsonNode bookmark = watch.next();
      assertThat(type(bookmark)).isEqualTo("BOOKMARK");
      assertThat(
              bookmark
                  .path("object")
                  .path("metadata")
                  .path("annotations")
                  .path("k8s.io/initial-events-end")
                  .asText())
          .isEqualTo("true");
      assertThat(bookmark.path("object").path("metadata").path("resourceVersion").asLong())
          .isGreaterThanOrEqualTo(rv(a));
    }
  }

  @Test
  void watch_deletion_carriesLastStateWithNewResourceVersion() {
    GenericKubernetesResource a = createLabelled("gone", "gone");
    try (WatchStream watch =
        new WatchStream(
            labelled("gone") + "&resourceVersion=" + a.getMetadata().getResourceVersion())) {
      widgets().withName("gone").delete();
      JsonNode deleted = watch.nextChange();
      assertThat(type(deleted) + ":" + name(deleted)).isEqualTo("DELETED:gone");
      assertThat(deleted.path("object").path("metadata").path("resourceVersion").asLong())
          .isGreaterThan(rv(a));
    }
  }

  @Test
  void watch_namespaced_seesOnlyItsNamespace() {
    String other = target.createNamespace();
    long from = rv(createLabelled("scoped-0", "scoped"));
    try (WatchStream watch = new WatchStream(labelled("scoped") + "&resourceVersion=" + from)) {
      target.widgets(other).resource(withLabel(widget("elsewhere", 1), "scoped")).create();
      createLabelled("scoped-1", "scoped");
      JsonNode event = watch.nextChange();
      assertThat(type(event) + ":" + name(event)).isEqualTo("ADDED:scoped-1");
    }
  }

  private static GenericKubernetesResource withLabel(GenericKubernetesResource w, String label) {
    w.getMetadata().setLabels(Map.of("suite", label));
    return w;
  }
}
