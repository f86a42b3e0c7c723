package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.RequestRecord;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WriteFloorTest {

  private static final String NS = "floor-test";
  private static final int PODSETS = 4;

  @Test
  void eachPodSet_getsItsPods_aReadyStatus_andOneEvent_withTheOperatorsMixOfWrites()
      throws Exception {
    try (FakeApiServer server =
            FakeApiServer.builder().kubelet(KubeletOptions.immediate()).start();
        KubernetesClient client = Control.client(server.url(), "floor-under-test")) {
      try (InputStream crd =
          getClass()
              .getClassLoader()
              .getResourceAsStream("META-INF/fabric8/" + PodSet.CRD_NAME + "-v1.yml")) {
        server.installCrds(crd);
      }
      server
          .client()
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
          .create();

      try (WriteFloor floor = WriteFloor.start(client)) {
        for (int i = 0; i < PODSETS; i++) {
          server
              .client()
              .resources(PodSet.class)
              .inNamespace(NS)
              .resource(PodSet.of(NS, "ps-" + i, PodSetSpec.ofReplicas(3)))
              .create();
        }
        Eventually.within(Duration.ofSeconds(60))
            .until(
                "every PodSet ready and its Event written",
                () ->
                    server
                                .client()
                                .resources(PodSet.class)
                                .inNamespace(NS)
                                .list()
                                .getItems()
                                .stream()
                                .filter(p -> p.getStatus() != null)
                                .filter(p -> p.getStatus().readyReplicas() == 3)
                                .count()
                            == PODSETS
                        && server.client().v1().events().inNamespace(NS).list().getItems().size()
                            == PODSETS);
      }

      List<Pod> pods = server.client().pods().inNamespace(NS).list().getItems();
      assertThat(pods).hasSize(3 * PODSETS);
      assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getOwnerReferences()).hasSize(1));
      Map<String, Long> writes =
          server.journal().records().stream()
              .filter(r -> "floor-under-test".equals(r.userAgent()))
              .filter(RequestRecord::isWrite)
              .collect(
                  Collectors.groupingBy(
                      r ->
                          r.verb()
                              + " "
                              + r.resource()
                              + (r.subresource() == null ? "" : "/" + r.subresource()),
                      Collectors.counting()));
      assertThat(writes)
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  "create pods", 3L * PODSETS,
                  "patch podsets/status", (long) PODSETS,
                  "create events", (long) PODSETS));
    }
  }
}
