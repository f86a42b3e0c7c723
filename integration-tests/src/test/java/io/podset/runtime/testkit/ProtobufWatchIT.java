package io.podset.runtime.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.ListerWatchers;
import io.podset.runtime.informer.Projections;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformers;
import io.podset.runtime.informer.transport.WatchTransport;
import io.podset.runtime.time.Clock;
import io.podset.testkit.Eventually;
import io.podset.testkit.junit5.WithRealApiServer;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Informers of built-in kinds watch in protobuf on a real kube-apiserver (as client-go's do): the
 * server answers the runtime's {@code Accept} in protobuf, and what an informer caches from the
 * protobuf watch equals what one caches from the JSON watch, projected and whole, through creates,
 * status changes, deletes and the objects' many field kinds (times, quantities, int-or-strings,
 * maps, embedded structs).
 */
@WithRealApiServer
class ProtobufWatchIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  // The shape of the PodSet operator's pod projection.
  private static final UnaryOperator<HasMetadata> PROJECTION =
      Projections.keep(
          Pod.class,
          "metadata.creationTimestamp",
          "metadata.labels[app]",
          "metadata.annotations[hash]",
          "metadata.ownerReferences",
          "spec.nodeName",
          "spec.containers.name",
          "spec.containers.image",
          "status.phase",
          "status.conditions[type=Ready].status",
          "status.conditions[type=Ready].lastTransitionTime",
          "status.containerStatuses.name",
          "status.containerStatuses.image",
          "status.containerStatuses.restartCount");

  @Test
  void podWatch_isAnsweredInProtobuf(KubernetesClient admin) throws Exception {
    HttpClient http = admin.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(URI.create(admin.getMasterUrl() + "api/v1/pods?watch=true&timeoutSeconds=1"))
            .header("Accept", "application/vnd.kubernetes.protobuf, application/json")
            .build();
    HttpResponse<InputStream> response =
        http.sendAsync(request, InputStream.class).get(60, TimeUnit.SECONDS);
    try (InputStream body = response.body()) {
      assertThat(response.code()).isEqualTo(200);
      assertThat(response.header("Content-Type"))
          .isEqualTo("application/vnd.kubernetes.protobuf;stream=watch");
    }
  }

  @Test
  void protobufAndJsonWatches_cacheEqualPods_projectedAndWhole(KubernetesClient admin)
      throws Exception {
    String ns = "protobuf-watch";
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    ConfigMap owner =
        admin
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    List<SharedInformer<Pod>> informers = new ArrayList<>();
    try {
      SharedInformer<Pod> projectedProtobuf =
          informer(admin, ns, PROJECTION, WatchTransport.HTTP_STREAM);
      SharedInformer<Pod> projectedJson =
          informer(admin, ns, PROJECTION, WatchTransport.HTTP_STREAM_JSON);
      SharedInformer<Pod> wholeProtobuf =
          informer(admin, ns, UnaryOperator.identity(), WatchTransport.HTTP_STREAM);
      SharedInformer<Pod> wholeJson =
          informer(admin, ns, UnaryOperator.identity(), WatchTransport.HTTP_STREAM_JSON);
      informers.addAll(List.of(projectedProtobuf, projectedJson, wholeProtobuf, wholeJson));
      for (SharedInformer<Pod> informer : informers) {
        informer.start();
        assertThat(informer.waitForCacheSync(WAIT)).isTrue();
      }
      // Every object arrives through the watches: the lists above were empty.
      for (int i = 0; i < 12; i++) {
        Pod created = admin.pods().inNamespace(ns).resource(pod("p" + i, owner)).create();
        if (i % 3 == 0) {
          markReady(admin, created);
        }
      }
      admin.pods().inNamespace(ns).withName("p1").withGracePeriod(0).delete();
      admin
          .pods()
          .inNamespace(ns)
          .withName("p2")
          .edit(
              p ->
                  new PodBuilder(p)
                      .editMetadata()
                      .addToLabels("app", "changed")
                      .endMetadata()
                      .build());
      String last =
          admin.pods().inNamespace(ns).withName("p2").get().getMetadata().getResourceVersion();
      for (SharedInformer<Pod> informer : informers) {
        informer.awaitObserved(last).get(60, TimeUnit.SECONDS);
        Eventually.await("all but the deleted pod cached", () -> informer.indexer().size() == 11);
      }

      assertThat(sorted(projectedProtobuf)).isEqualTo(sorted(projectedJson));
      assertThat(sorted(wholeProtobuf)).isEqualTo(sorted(wholeJson));
      Pod ready = projectedProtobuf.indexer().getByKey(ns + "/p3").orElseThrow();
      assertThat(ready.getStatus().getConditions())
          .singleElement()
          .satisfies(c -> assertThat(c.getLastTransitionTime()).isNotEmpty());
      assertThat(ready.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(2);
      Pod whole = wholeProtobuf.indexer().getByKey(ns + "/p3").orElseThrow();
      assertThat(whole.getSpec().getContainers().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("250m"));
      assertThat(whole.getSpec().getVolumes()).isNotEmpty();
      assertThat(whole.getSpec().getVolumes().get(0).getConfigMap().getName()).isEqualTo("owner");
    } finally {
      informers.forEach(SharedInformer::close);
    }
  }

  private static SharedInformer<Pod> informer(
      KubernetesClient client, String ns, UnaryOperator<HasMetadata> transform, WatchTransport t) {
    InformerOptions options =
        InformerOptions.builder().namespace(ns).transform(transform).watchTransport(t).build();
    return SharedInformers.create(
        Pod.class, ListerWatchers.forResource(client, Pod.class, options), options, Clock.system());
  }

  private static List<Pod> sorted(SharedInformer<Pod> informer) {
    return informer.indexer().list().stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  private static Pod pod(String name, ConfigMap owner) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels("app", "web")
        .addToLabels("other", "x")
        .addToAnnotations("hash", "abc")
        .addNewOwnerReference()
        .withApiVersion("v1")
        .withKind("ConfigMap")
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("busybox:1.36")
        .withCommand("sleep", "3600")
        .withNewResources()
        .withLimits(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("64Mi")))
        .endResources()
        .addNewPort()
        .withContainerPort(8080)
        .endPort()
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/ready")
        .withNewPort("http")
        .endHttpGet()
        .endReadinessProbe()
        .endContainer()
        .addNewVolume()
        .withName("config")
        .withNewConfigMap()
        .withName("owner")
        .endConfigMap()
        .endVolume()
        .endSpec()
        .build();
  }

  /** What a kubelet would write: Running, Ready since now, a container restarted twice. */
  private static void markReady(KubernetesClient admin, Pod pod) {
    Pod status = new PodBuilder(pod).build();
    status.setStatus(
        new PodStatusBuilder()
            .withPhase("Running")
            .withPodIP("10.0.0.7")
            .addToConditions(
                new PodConditionBuilder()
                    .withType("Ready")
                    .withStatus("True")
                    .withLastTransitionTime("2026-12-07T10:00:00Z")
                    .build(),
                new PodConditionBuilder().withType("PodScheduled").withStatus("True").build())
            .addToContainerStatuses(
                new ContainerStatusBuilder()
                    .withName("app")
                    .withImage("busybox:1.36")
                    .withImageID("")
                    .withReady(true)
                    .withRestartCount(2)
                    .withNewState()
                    .withNewRunning()
                    .withStartedAt("2026-12-07T10:00:00Z")
                    .endRunning()
                    .endState()
                    .build())
            .build());
    admin.pods().inNamespace(pod.getMetadata().getNamespace()).resource(status).updateStatus();
  }
}
