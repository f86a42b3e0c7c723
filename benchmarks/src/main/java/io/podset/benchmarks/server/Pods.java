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

  private Pods() {}

  /** Namespace {@code bench-<i % namespaces>}. */
  public static String namespace(int index, int namespaces) {
    return "bench-" + (index % namespaces);
  }

  /** The JSON of pod number {@code index} in {@code namespace}. */
  public static String json(int index, String namespace) {
    String ip = "10." + ((index >> 16) & 255) + "." + ((index >> 8) & 255) + "." + (index & 255);
    return TEMPLATE
        .replace("{{NAMESPACE}}", namespace)
        .replace("{{NAME}}", Integer.toString(index, 36))
        .replace("{{POD_IP}}", ip)
        .replace("{{HOST_IP}}", "192.168.0." + (index % 200))
        .replace("{{NODE}}", "node-" + (index % 200));
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
