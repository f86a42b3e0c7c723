package io.podset.operator;

import static io.podset.operator.TestObjects.UID;
import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.operator.PodSetPlan.ContainerImage;
import io.podset.operator.PodSetPlan.ImageUpdate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodPatchesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final PodSet podSet = podSet(1);

  private static JsonNode parse(String patch) throws Exception {
    return JSON.readTree(patch);
  }

  @Test
  void adopt_testsUidAndVersion_thenSetsTheControllerReference() throws Exception {
    Pod orphan = podOf(podSet, "orphan").orphan().build();

    JsonNode ops = parse(PodPatches.adopt(orphan, podSet));

    assertThat(ops).hasSize(3);
    assertThat(ops.get(0).toString())
        .isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-orphan\"}");
    assertThat(ops.get(1).toString())
        .isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"5\"}");
    JsonNode add = ops.get(2);
    assertThat(add.get("op").asText()).isEqualTo("add");
    assertThat(add.get("path").asText()).isEqualTo("/metadata/ownerReferences");
    JsonNode ref = add.get("value").get(0);
    assertThat(ref.get("uid").asText()).isEqualTo(UID);
    assertThat(ref.get("kind").asText()).isEqualTo("PodSet");
    assertThat(ref.get("controller").asBoolean()).isTrue();
    assertThat(ref.get("blockOwnerDeletion").asBoolean()).isTrue();
    assertThat(orphan.getMetadata().getOwnerReferences()).isEmpty();
  }

  @Test
  void adopt_keepsOtherNonControllerReferences() throws Exception {
    Pod orphan = podOf(podSet, "orphan").orphan().build();
    orphan
        .getMetadata()
        .setOwnerReferences(
            new ArrayList<>(
                List.of(
                    new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("ConfigMap")
                        .withName("cm")
                        .withUid("uid-cm")
                        .build())));

    JsonNode refs = parse(PodPatches.adopt(orphan, podSet)).get(2).get("value");

    assertThat(refs).hasSize(2);
    assertThat(refs.get(0).get("uid").asText()).isEqualTo("uid-cm");
    assertThat(refs.get(1).get("uid").asText()).isEqualTo(UID);
  }

  @Test
  void release_removesTheReferenceByIndexAfterTestingIt() throws Exception {
    Pod pod = podOf(podSet, "web-0").build();

    JsonNode ops = parse(PodPatches.release(pod, podSet));

    assertThat(ops.toString())
        .isEqualTo(
            "[{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-web-0\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/ownerReferences/0/uid\",\"value\":\""
                + UID
                + "\"},{\"op\":\"remove\",\"path\":\"/metadata/ownerReferences/0\"}]");
  }

  @Test
  void release_podWithoutTheReference_isRejected() {
    Pod orphan = podOf(podSet, "orphan").orphan().build();

    assertThatThrownBy(() -> PodPatches.release(orphan, podSet))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pod orphan has no owner reference with uid " + UID);
  }

  @Test
  void updateImages_testsNamesReplacesImagesAndSetsTheHash() throws Exception {
    Pod pod = podOf(podSet, "web-0").build();
    ImageUpdate update =
        new ImageUpdate(pod, List.of(new ContainerImage(0, "busybox", "busybox:1.36")));

    JsonNode ops = parse(PodPatches.updateImages(update, "abc123"));

    assertThat(ops.toString())
        .isEqualTo(
            "[{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-web-0\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/containers/0/name\",\"value\":\"busybox\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/containers/0/image\",\"value\":\"busybox:1.36\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/labels/app.example.com~1template-hash\","
                + "\"value\":\"abc123\"}]");
  }

  @Test
  void escape_jsonPointerSpecials() {
    assertThat(PodPatches.escape("a/b~c")).isEqualTo("a~1b~0c");
  }
}
