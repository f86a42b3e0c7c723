package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Objects;

/**
 * Benchmark 4 on java-operator-sdk: a reconciler of ConfigMaps that records the latency of each
 * update when it starts and writes nothing. Generation-aware processing is off: ConfigMaps have no
 * spec, and the driver's updates change only an annotation.
 */
@ControllerConfiguration(name = "latency-josdk", generationAwareEventProcessing = false)
final class JosdkLatencyReconciler implements Reconciler<ConfigMap> {

  private final LatencyRecorder recorder;
  private final Runnable onDone;

  JosdkLatencyReconciler(LatencyRecorder recorder, Runnable onDone) {
    this.recorder = Objects.requireNonNull(recorder, "recorder");
    this.onDone = Objects.requireNonNull(onDone, "onDone");
  }

  @Override
  public UpdateControl<ConfigMap> reconcile(ConfigMap configMap, Context<ConfigMap> context) {
    recorder.seen(configMap);
    if (LatencyServer.DONE.equals(configMap.getMetadata().getName())) {
      onDone.run();
    }
    return UpdateControl.noUpdate();
  }
}
