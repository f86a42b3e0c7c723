package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.Operator;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.ControllerBuilder;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.informer.transport.WatchTransport;
import io.podset.runtime.reconcile.Result;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * Benchmark 4, contender side: receives the driver's ConfigMap updates and records each one's
 * latency where the reconcile (or handler) starts, until the ConfigMap {@value LatencyServer#DONE}
 * appears; then prints its figures ({@link LatencyRecorder}) and creates {@value
 * LatencyServer#REPORTED}. Runs until standard input closes.
 *
 * <p>Usage: {@code LatencyContender <contender> <server url>}, a contender named below.
 *
 * <ul>
 *   <li>{@code ours}: a controller on our runtime for ConfigMaps of the namespace, builder defaults
 *       (one worker, buffered handlers, HTTP streaming watch); the reconciler reads the object from
 *       the informer's cache.
 *   <li>{@code ours-fabric8-watch}: the same with fabric8's watch ({@link WatchTransport#FABRIC8})
 *       instead of ours, for A/B runs of the watch transport.
 *   <li>{@code ours-inline}: the same as {@code ours} with the controller's handlers inline ({@link
 *       ControllerBuilder#inlineEventHandlers(boolean)}), for A/B runs of the hand-off.
 *   <li>{@code fabric8-informer}: a bare fabric8 informer's handler, the lower bound: no queue and
 *       no worker hand-off.
 *   <li>{@code josdk}: a java-operator-sdk reconciler with its defaults, for the namespace.
 * </ul>
 */
public final class LatencyContender {

  private static final List<String> CONTENDERS =
      List.of("ours", "ours-fabric8-watch", "ours-inline", "fabric8-informer", "josdk");

  private LatencyContender() {}

  /** Runs the contender; see the class documentation. */
  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !CONTENDERS.contains(args[0])) {
      throw new IllegalArgumentException(
          "usage: LatencyContender <" + String.join("|", CONTENDERS) + "> <server url>");
    }
    String contender = args[0];
    try (KubernetesClient client = Control.client(URI.create(args[1]), null)) {
      LatencyRecorder recorder = new LatencyRecorder();
      AtomicBoolean reported = new AtomicBoolean();
      Runnable onDone =
          () -> {
            if (reported.compareAndSet(false, true)) {
              report(client, contender, recorder);
            }
          };
      AutoCloseable running =
          switch (contender) {
            case "ours" -> ours(client, recorder, onDone, WatchTransport.HTTP_STREAM, false);
            case "ours-fabric8-watch" ->
                ours(client, recorder, onDone, WatchTransport.FABRIC8, false);
            case "ours-inline" -> ours(client, recorder, onDone, WatchTransport.HTTP_STREAM, true);
            case "fabric8-informer" -> fabric8(client, recorder, onDone);
            default -> josdk(client, recorder, onDone);
          };
      Control.announce(client, contender);
      System.err.println(contender + " running");
      ConvergeServer.awaitEndOfInput(System.in);
      running.close();
    }
    // java-operator-sdk leaves non-daemon threads behind after stop().
    System.exit(0);
  }

  private static void report(KubernetesClient client, String contender, LatencyRecorder recorder) {
    List<String> summaries = new ArrayList<>();
    recorder.results(contender, summaries).stream()
        .filter(line -> !line.contains("." + LatencyServer.WARM + " "))
        .forEach(System.out::println);
    System.out.flush();
    summaries.forEach(System.err::println);
    client
        .configMaps()
        .inNamespace("default")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(LatencyServer.REPORTED)
                .endMetadata()
                .build())
        .create();
  }

  private static boolean isDone(ConfigMap configMap) {
    return LatencyServer.DONE.equals(configMap.getMetadata().getName());
  }

  private static AutoCloseable ours(
      KubernetesClient client,
      LatencyRecorder recorder,
      Runnable onDone,
      WatchTransport transport,
      boolean inlineHandlers) {
    SharedInformerFactory informers = SharedInformerFactory.create(client);
    InformerOptions options =
        InformerOptions.defaults()
            .withNamespace(LatencyServer.NAMESPACE)
            .withWatchTransport(transport);
    LatencyStages stages =
        LatencyStages.enabled()
            ? new LatencyStages(
                List.of("watch->transform", "->informer", "->handler", "->reconcile"))
            : null;
    if (stages != null) {
      UnaryOperator<HasMetadata> strip = options.transform();
      options =
          options.withTransform(
              obj -> {
                stages.passed(obj, 1);
                return strip.apply(obj);
              });
    }
    SharedInformer<ConfigMap> configMaps = informers.informerFor(ConfigMap.class, options);
    ControllerBuilder builder =
        Controllers.builder(informers)
            .named("latency")
            .informerOptions(options)
            .inlineEventHandlers(inlineHandlers);
    if (stages != null) {
      configMaps.addIndexers(
          Map.of(
              "stage",
              obj -> {
                stages.passed(obj, 2);
                return List.of();
              }));
      builder.withEventFilter(
          event -> {
            stages.passed(event.object(), 3);
            return true;
          });
    }
    Controller controller =
        builder
            .forResource(ConfigMap.class)
            .reconciler(
                request -> {
                  configMaps
                      .indexer()
                      .getByKey(request.toString())
                      .ifPresent(
                          configMap -> {
                            if (stages != null) {
                              stages.passed(configMap, 4);
                            }
                            recorder.seen(configMap);
                            if (isDone(configMap)) {
                              if (stages != null) {
                                stages.summary().forEach(System.err::println);
                              }
                              onDone.run();
                            }
                          });
                  return Result.done();
                })
            .build();
    controller.start();
    return () -> {
      controller.close();
      informers.close();
    };
  }

  private static AutoCloseable fabric8(
      KubernetesClient client, LatencyRecorder recorder, Runnable onDone) {
    SharedIndexInformer<ConfigMap> informer =
        client
            .configMaps()
            .inNamespace(LatencyServer.NAMESPACE)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap configMap) {
                    onUpdate(null, configMap);
                  }

                  @Override
                  public void onUpdate(ConfigMap before, ConfigMap configMap) {
                    recorder.seen(configMap);
                    if (isDone(configMap)) {
                      onDone.run();
                    }
                  }

                  @Override
                  public void onDelete(ConfigMap configMap, boolean finalStateUnknown) {}
                });
    return informer::close;
  }

  private static AutoCloseable josdk(
      KubernetesClient client, LatencyRecorder recorder, Runnable onDone) {
    Operator operator = new Operator(overrider -> overrider.withKubernetesClient(client));
    operator.register(
        new JosdkLatencyReconciler(recorder, onDone),
        o -> o.settingNamespace(LatencyServer.NAMESPACE));
    operator.start();
    return operator::stop;
  }
}
