package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.testkit.Registration;
import io.podset.testkit.SimulatedKubelet;
import io.podset.testkit.SimulatedKubelet.PodFate;
import io.podset.testkit.internal.resource.Json;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the simulated kubelet chooses a new pod's fate: the rules a test assigned (the latest first),
 * then the pod's {@link SimulatedKubelet#FATE_KEY} annotation or label, else {@link PodFate#RUN}.
 * Thread-safe: rules may be added and removed while pods are observed.
 */
final class PodFates {

  private static final Logger LOG = LoggerFactory.getLogger(PodFates.class);

  private record FateRule(Predicate<Pod> predicate, PodFate fate) {}

  private final List<FateRule> rules = new CopyOnWriteArrayList<>();

  /** Adds a rule ahead of the others; the registration removes it. */
  Registration assign(Predicate<Pod> predicate, PodFate fate) {
    FateRule rule =
        new FateRule(
            Objects.requireNonNull(predicate, "predicate"), Objects.requireNonNull(fate, "fate"));
    rules.add(0, rule);
    return () -> rules.remove(rule);
  }

  /** The fate of {@code pod}; an unknown annotation value is logged and the pod runs normally. */
  PodFate fateOf(ObjectNode pod) {
    if (!rules.isEmpty()) {
      Pod typed = Json.convert(pod, Pod.class);
      for (FateRule rule : rules) {
        if (rule.predicate().test(typed)) {
          return rule.fate();
        }
      }
    }
    String value =
        pod.path("metadata").path("annotations").path(SimulatedKubelet.FATE_KEY).asText(null);
    if (value == null) {
      value = pod.path("metadata").path("labels").path(SimulatedKubelet.FATE_KEY).asText(null);
    }
    if (value == null) {
      return PodFate.RUN;
    }
    try {
      return PodFate.fromValue(value);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "Pod {}/{}: {}; it runs normally", Json.namespace(pod), Json.name(pod), e.getMessage());
      return PodFate.RUN;
    }
  }
}
