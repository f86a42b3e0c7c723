package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.kubernetes.api.model.StatusDetailsBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;

/** Test objects and API errors. */
final class Pods {

  private Pods() {}

  static Pod pod(String name, String resourceVersion) {
    return pod("default", name, resourceVersion);
  }

  static Pod pod(String namespace, String name, String resourceVersion) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withResourceVersion(resourceVersion)
        .withUid("uid-" + name)
        .endMetadata()
        .build();
  }

  static Pod podWithManagedFields(String name, String resourceVersion) {
    Pod pod = pod(name, resourceVersion);
    pod.getMetadata()
        .getManagedFields()
        .add(
            new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Update").build());
    return pod;
  }

  static KubernetesClientException gone() {
    return new KubernetesClientException(
        new StatusBuilder()
            .withCode(410)
            .withReason("Expired")
            .withMessage("too old resource version")
            .build());
  }

  static KubernetesClientException tooManyRequests() {
    return new KubernetesClientException(
        new StatusBuilder()
            .withCode(429)
            .withReason("TooManyRequests")
            .withMessage("slow down")
            .build());
  }

  /** 429 whose Status says to retry after {@code seconds}, as kube-apiserver's does. */
  static KubernetesClientException tooManyRequests(int seconds) {
    return new KubernetesClientException(
        new StatusBuilder()
            .withCode(429)
            .withReason("TooManyRequests")
            .withMessage("slow down")
            .withDetails(new StatusDetailsBuilder().withRetryAfterSeconds(seconds).build())
            .build());
  }

  static KubernetesClientException internalError() {
    return new KubernetesClientException(
        new StatusBuilder().withCode(500).withReason("InternalError").withMessage("oops").build());
  }

  static KubernetesClientException forbidden() {
    return new KubernetesClientException(
        new StatusBuilder().withCode(403).withReason("Forbidden").withMessage("no access").build());
  }

  static KubernetesClientException invalid() {
    return new KubernetesClientException(
        new StatusBuilder()
            .withCode(422)
            .withReason("Invalid")
            .withMessage("sendInitialEvents")
            .build());
  }

  static KubernetesClientException tooLargeResourceVersion() {
    return new KubernetesClientException(
        new StatusBuilder()
            .withCode(504)
            .withReason("Timeout")
            .withMessage("Too large resource version: 99, current: 10")
            .withDetails(
                new StatusDetailsBuilder()
                    .withCauses(
                        new StatusCauseBuilder().withReason("ResourceVersionTooLarge").build())
                    .build())
            .build());
  }

  static RuntimeException connectionRefused() {
    return new KubernetesClientException("connection refused", new ConnectException("refused"));
  }
}
