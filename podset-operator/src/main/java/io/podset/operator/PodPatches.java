package io.podset.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.operator.PodSetPlan.ContainerImage;
import io.podset.operator.PodSetPlan.ImageUpdate;
import io.podset.runtime.ownership.OwnerReferences;
import java.util.List;

/**
 * The JSON Patches (RFC 6902) the operator sends to pods (the status goes through the layer's
 * {@link io.podset.runtime.status.StatusWriter}). Each starts with {@code test} operations on what
 * it relies on (the pod's uid, its resourceVersion or the container names), so a patch computed
 * from a stale cache fails instead of changing the wrong thing.
 */
final class PodPatches {

  private static final ObjectMapper JSON = new ObjectMapper();

  private PodPatches() {}

  /**
   * Makes {@code podSet} the controller of the orphan {@code pod}; fails if the pod changed since
   * it was cached (it may have been adopted by someone else meanwhile).
   */
  static String adopt(Pod pod, PodSet podSet) {
    Pod copy = new Pod();
    copy.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    copy.getMetadata().setNamespace(pod.getMetadata().getNamespace());
    copy.getMetadata().setOwnerReferences(pod.getMetadata().getOwnerReferences());
    OwnerReferences.setControllerReference(podSet, copy);
    ArrayNode ops = JSON.createArrayNode();
    ops.add(test("/metadata/uid", pod.getMetadata().getUid()));
    ops.add(test("/metadata/resourceVersion", pod.getMetadata().getResourceVersion()));
    ObjectNode add = ops.addObject();
    add.put("op", "add");
    add.put("path", "/metadata/ownerReferences");
    add.set("value", JSON.valueToTree(copy.getMetadata().getOwnerReferences()));
    return write(ops);
  }

  /**
   * Removes the reference to {@code podSet} from {@code pod}, which it controls; fails if the
   * reference moved or the pod is another one.
   *
   * @throws IllegalArgumentException if the pod has no reference with the PodSet's uid
   */
  static String release(Pod pod, PodSet podSet) {
    String uid = podSet.getMetadata().getUid();
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    int index = -1;
    for (int i = 0; refs != null && i < refs.size(); i++) {
      if (uid.equals(refs.get(i).getUid())) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      throw new IllegalArgumentException(
          "pod " + pod.getMetadata().getName() + " has no owner reference with uid " + uid);
    }
    ArrayNode ops = JSON.createArrayNode();
    ops.add(test("/metadata/uid", pod.getMetadata().getUid()));
    ops.add(test("/metadata/ownerReferences/" + index + "/uid", uid));
    ObjectNode remove = ops.addObject();
    remove.put("op", "remove");
    remove.put("path", "/metadata/ownerReferences/" + index);
    return write(ops);
  }

  /**
   * Sets the new container images of {@code update} and the template hash label {@code
   * templateHash}; fails if the pod is another one or its containers moved.
   */
  static String updateImages(ImageUpdate update, String templateHash) {
    Pod pod = update.pod();
    ArrayNode ops = JSON.createArrayNode();
    ops.add(test("/metadata/uid", pod.getMetadata().getUid()));
    for (ContainerImage change : update.changes()) {
      String container = "/spec/containers/" + change.index();
      ops.add(test(container + "/name", change.name()));
      ObjectNode replace = ops.addObject();
      replace.put("op", "replace");
      replace.put("path", container + "/image");
      replace.put("value", change.image());
    }
    ObjectNode label = ops.addObject();
    label.put("op", "add");
    if (pod.getMetadata().getLabels() == null) {
      label.put("path", "/metadata/labels");
      label.set("value", JSON.createObjectNode().put(PodSetLabels.TEMPLATE_HASH, templateHash));
    } else {
      label.put("path", "/metadata/labels/" + escape(PodSetLabels.TEMPLATE_HASH));
      label.put("value", templateHash);
    }
    return write(ops);
  }

  /** Escapes a JSON Pointer token: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
  static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }

  private static ObjectNode test(String path, String value) {
    ObjectNode op = JSON.createObjectNode();
    op.put("op", "test");
    op.put("path", path);
    op.put("value", value);
    return op;
  }

  private static String write(ArrayNode ops) {
    try {
      return JSON.writeValueAsString(ops);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a JSON patch", e);
    }
  }
}
