package io.podset.benchmarks.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Pods of about 5.5 KB of JSON each, 2.2 KB of it {@code managedFields}: a Deployment's pod with
 * one container, a projected service-account volume, probes, tolerations and a running status, as a
 * real API server returns it.
 */
public final class Pods {

  private static final String TEMPLATE = load();

  /** The ReplicaSet every pod names as its controller. */
  public static final String OWNER = "web-7d9f8c6b5";

  /** The owner's uid in the template (its owner reference and managedFields key). */
  private static final String TEMPLATE_OWNER_UID = "5f0c2b9e-3d41-4a8e-9c55-0a1b2c3d4e5f";

  private Pods() {}

  /** Namespace {@code bench-<i % namespaces>}. */
  public static String namespace(int index, int namespaces) {
    return "bench-" + (index % namespaces);
  }

  /**
   * The JSON of the ReplicaSet {@value #OWNER} that owns the pods of one namespace: without it, the
   * server's garbage collector deletes every pod (its owner is absent), and keeps both versions of
   * each in its history.
   */
  public static String ownerJson(int replicas) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\""
        + OWNER
        + "\",\"labels\":{\"app.kubernetes.io/name\":\"web\"}},\"spec\":{\"replicas\":"
        + replicas
        + ",\"selector\":{\"matchLabels\":{\"app.kubernetes.io/name\":\"web\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app.kubernetes.io/name\":\"web\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.27\"}]}}}}";
  }

  /**
   * The JSON of pod number {@code index} in {@code namespace}, owned by the ReplicaSet of uid
   * {@code ownerUid} ({@link #ownerJson}).
   */
  public static String json(int index, String namespace, String ownerUid) {
    String ip = "10." + ((index >> 16) & 255) + "." + ((index >> 8) & 255) + "." + (index & 255);
    return TEMPLATE
        .replace("{{NAMESPACE}}", namespace)
        .replace("{{NAME}}", Integer.toString(index, 36))
        .replace("{{POD_IP}}", ip)
        .replace("{{HOST_IP}}", "192.168.0." + (index % 200))
        .replace("{{NODE}}", "node-" + (index % 200))
        .replace(TEMPLATE_OWNER_UID, ownerUid);
  }

  private static String load() {
    try (InputStream in = Pods.class.getResourceAsStream("pod.json")) {
      if (in == null) {
        throw new IllegalStateException("pod.json missing next to " + Pods.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
