package io.podset.benchmarks.report;

import java.util.Map;

/** What each figure measures, for the Markdown table. */
final class Figures {

  private static final Map<String, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry("workqueue.cycle", "add + get + done of one key, one thread"),
          Map.entry("workqueue.add_after", "addAfter(key, 1 h), distinct keys, 1000 per queue"),
          Map.entry("workqueue.add_rate_limited", "addRateLimited, distinct keys, 1000 per queue"),
          Map.entry("workqueue.dedup", "1 producer / 2 workers, 10k keys with dedup, gets"),
          Map.entry("workqueue.unique", "1 producer / 2 workers, distinct keys, processed"),
          Map.entry("apiserver.startup", "server start-up, median of restarts in one JVM"),
          Map.entry("apiserver.cold_startup", "first server start-up in a fresh JVM"),
          Map.entry("apiserver.get", "GET of a ConfigMap, 4 client threads, other CPU"),
          Map.entry("apiserver.put", "PUT of a ConfigMap, 4 client threads, other CPU"),
          Map.entry(
              "apiserver.watch_events",
              "events delivered to 100 bare WebSocket watchers, 300 creates"),
          Map.entry(
              "apiserver.watch_events_fabric8",
              "events delivered to 100 fabric8 watchers (client-bound), 300 creates"),
          Map.entry(
              "informer.sync_time", "pod informer start to synced, first sync in a fresh JVM"),
          Map.entry(
              "informer.warm_sync_rate",
              "pods/s of a new informer's full sync in a warm JVM, median of measured rounds"),
          Map.entry(
              "informer.sync_cpu", "CPU used by the contender JVM from start to synced, JIT/GC in"),
          Map.entry("informer.retained_per_object", "heap retained per cached pod after full GC"),
          Map.entry("informer.peak_heap", "peak heap during the initial sync"),
          Map.entry(
              "informer.operator_cache_per_pod",
              "heap per cached pod: ours as the PodSet operator caches pods (projection), the"
                  + " peer's default cache"),
          Map.entry(
              "operator.converge_time",
              "PodSets x 3 pods, kubelet ready at once: first create to all readyReplicas=3"),
          Map.entry(
              "operator.converge_api_calls", "API calls made while converging (server journal)"),
          Map.entry(
              "operator.converge_api_calls_no_events",
              "API calls made while converging, core/v1 Events left out"),
          Map.entry("operator.converge_conflicts", "API calls answered 409 while converging"),
          Map.entry(
              "operator.converge_write_rate",
              "writes/s from the first create to the contender's last write"),
          Map.entry("operator.latency_p50", "update written to reconcile start, median"),
          Map.entry("operator.latency_p99", "update written to reconcile start, 99th percentile"),
          Map.entry(
              "operator.latency_p999", "update written to reconcile start, 99.9th percentile"));

  private Figures() {}

  /** The description of a figure, or of the figure an {@code .alloc} figure belongs to. */
  static String describe(String figure) {
    if (figure.endsWith(".alloc")) {
      String base = figure.substring(0, figure.length() - ".alloc".length());
      return "allocated per op: " + DESCRIPTIONS.getOrDefault(base, base);
    }
    String exact = DESCRIPTIONS.get(figure);
    if (exact != null) {
      return exact;
    }
    int dot = figure.lastIndexOf('.');
    String parent = dot < 0 ? null : DESCRIPTIONS.get(figure.substring(0, dot));
    return parent != null ? parent + " (" + figure.substring(dot + 1) + ")" : "";
  }
}
