package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cluster IPs (from {@value #IP_RANGE}, kubeadm's default service range) and node ports
 * ({@value #FIRST_NODE_PORT}-{@value #LAST_NODE_PORT}) of Services. What is in use is read from the
 * stored Services, so a deleted Service frees its addresses at once; candidates come from counters
 * that only move forward, so concurrent creates never get the same one. No lock of its own: it is
 * called both outside and inside the store's lock.
 */
public final class ServiceAddresses {

  static final String IP_RANGE = "10.96.0.0/12";
  static final int FIRST_NODE_PORT = 30000;
  static final int LAST_NODE_PORT = 32767;
  private static final long BASE = (10L << 24) | (96L << 16);
  // .0 is the network, .1 is the kubernetes Service's address on a real cluster.
  private static final long FIRST_HOST = 2;
  private static final long HOSTS = (1L << 20) - FIRST_HOST - 1;
  private static final String SERVICES = "/services";

  private final ObjectStore store;
  private final AtomicLong nextIp = new AtomicLong();
  private final AtomicLong nextPort = new AtomicLong();

  public ServiceAddresses(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /** A free cluster IP. */
  String allocateIp() {
    Set<String> used = usedIps(null);
    for (long tries = 0; tries < HOSTS; tries++) {
      long host = FIRST_HOST + Math.floorMod(nextIp.getAndIncrement(), HOSTS);
      String ip = format(BASE + host);
      if (!used.contains(ip)) {
        return ip;
      }
    }
    throw new StatusError(
        500, "InternalError", "range is full: no free cluster IP in " + IP_RANGE, null);
  }

  /** A free node port, not in {@code taken} either (ports of the Service being written). */
  int allocateNodePort(Set<Integer> taken) {
    Set<Integer> used = usedNodePorts(null);
    int size = LAST_NODE_PORT - FIRST_NODE_PORT + 1;
    for (int tries = 0; tries < size; tries++) {
      int port = FIRST_NODE_PORT + (int) Math.floorMod(nextPort.getAndIncrement(), (long) size);
      if (!used.contains(port) && !taken.contains(port)) {
        return port;
      }
    }
    throw new StatusError(
        500,
        "InternalError",
        "range is full: no free node port in " + FIRST_NODE_PORT + "-" + LAST_NODE_PORT,
        null);
  }

  /** The cluster IPs of stored Services other than {@code except} (a namespace/name key). */
  Set<String> usedIps(String except) {
    Set<String> used = new HashSet<>();
    for (ObjectNode service : others(except)) {
      for (JsonNode ip : service.path("spec").path("clusterIPs")) {
        used.add(ip.asText());
      }
      used.add(service.path("spec").path("clusterIP").asText(""));
    }
    return used;
  }

  /** The node ports of stored Services other than {@code except}. */
  Set<Integer> usedNodePorts(String except) {
    Set<Integer> used = new HashSet<>();
    for (ObjectNode service : others(except)) {
      for (JsonNode port : service.path("spec").path("ports")) {
        if (port.path("nodePort").asInt(0) > 0) {
          used.add(port.path("nodePort").asInt());
        }
      }
      if (service.path("spec").path("healthCheckNodePort").asInt(0) > 0) {
        used.add(service.path("spec").path("healthCheckNodePort").asInt());
      }
    }
    return used;
  }

  private Iterable<ObjectNode> others(String except) {
    return store.list(SERVICES, "", null).objects().stream()
        .filter(
            s -> except == null || !ObjectStore.key(Json.namespace(s), Json.name(s)).equals(except))
        .toList();
  }

  private static String format(long address) {
    return ((address >> 24) & 255)
        + "."
        + ((address >> 16) & 255)
        + "."
        + ((address >> 8) & 255)
        + "."
        + (address & 255);
  }
}
