package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.operator.reliability.ClusterHistory.Change;
import io.podset.operator.reliability.ClusterHistory.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The no-surplus check on hand-made histories: it must flag a real over-create, and must not flag
 * the pods left from before a scale-down. No operator is tracked, so its view is at version 0:
 * every version of the PodSet counts as one it may have acted on, the most lenient view possible.
 */
class PodSetInvariantsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UID = "ps-uid";

  private final OperatorView view = new OperatorView();
  private final PodSetInvariants invariants =
      new PodSetInvariants(view, Duration.ofSeconds(5), Duration.ofSeconds(2));
  private final List<Change> changes = new ArrayList<>();
  private long rv;

  @AfterEach
  void closeView() {
    view.close();
  }

  @Test
  void createBeyondEveryReplicasValue_isFlaggedWithItsTimeline() {
    podSet("ADDED", 2);
    pod("ADDED", "web-a");
    pod("ADDED", "web-b");
    pod("ADDED", "web-c");
    invariants.advance(changes, rv);

    assertThat(invariants.violations())
        .singleElement()
        .asString()
        .contains("PodSet chaos/web: 3 active pods at rv " + rv);
    assertThat(invariants.explanations())
        .singleElement()
        .asString()
        .contains("PodSet ADDED replicas 2")
        .contains("pod chaos/web-c counts: created");
  }

  @Test
  void podsFromBeforeAScaleDown_areAllowed_aCreateAfterIt_isNot() {
    podSet("ADDED", 3);
    pod("ADDED", "web-a");
    pod("ADDED", "web-b");
    pod("ADDED", "web-c");
    podSet("MODIFIED", 1);
    pod("MODIFIED", "web-a"); // a status change: still three old pods, allowed
    invariants.advance(changes, rv);
    assertThat(invariants.violations()).isEmpty();

    changes.clear();
    pod("ADDED", "web-d");
    invariants.advance(changes, rv);
    assertThat(invariants.violations())
        .singleElement()
        .asString()
        .contains("4 active pods")
        .contains("at most 3 within the staleness window, 3 from before the latest scale-down");
  }

  private void podSet(String type, int replicas) {
    ObjectNode object = JSON.createObjectNode();
    object.putObject("metadata").put("namespace", "chaos").put("name", "web").put("uid", UID);
    object.putObject("spec").put("replicas", replicas);
    add(Resource.PODSETS, type, object);
  }

  private void pod(String type, String name) {
    ObjectNode object = JSON.createObjectNode();
    ObjectNode meta =
        object.putObject("metadata").put("namespace", "chaos").put("name", name).put("uid", name);
    meta.putArray("ownerReferences").addObject().put("controller", true).put("uid", UID);
    object.putObject("status").put("phase", "Running");
    add(Resource.PODS, type, object);
  }

  private void add(Resource resource, String type, JsonNode object) {
    rv++;
    changes.add(new Change(resource, type, rv, System.nanoTime(), object));
  }
}
