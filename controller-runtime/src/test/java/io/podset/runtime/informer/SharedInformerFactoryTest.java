package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SharedInformerFactoryTest {

  /** Hands out one scripted lister-watcher per informer created. */
  private static final class ScriptedSource implements ListerWatcherSource {
    final List<ScriptedListerWatcher<?>> created = new CopyOnWriteArrayList<>();

    @Override
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> ListerWatcher<T> forType(
        Class<T> type, InformerOptions options) {
      ScriptedListerWatcher<T> lw = new ScriptedListerWatcher<>();
      created.add(lw);
      return lw;
    }

    @Override
    public ListerWatcher<GenericKubernetesResource> forContext(
        ResourceDefinitionContext context, InformerOptions options) {
      ScriptedListerWatcher<GenericKubernetesResource> lw = new ScriptedListerWatcher<>();
      created.add(lw);
      return lw;
    }

    @SuppressWarnings("unchecked")
    <T extends HasMetadata> ScriptedListerWatcher<T> get(int i) {
      return (ScriptedListerWatcher<T>) created.get(i);
    }
  }

  private final ScriptedSource source = new ScriptedSource();
  private final SharedInformerFactory factory =
      new DefaultSharedInformerFactory(source, new ManualClock());

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  void informerFor_isSharedPerTypeNamespaceAndSelectors() {
    InformerOptions inNs = InformerOptions.defaults().withNamespace("ns");

    SharedInformer<Pod> a = factory.informerFor(Pod.class, inNs);
    SharedInformer<Pod> b =
        factory.informerFor(Pod.class, inNs.withResyncPeriod(Duration.ofMinutes(1)));
    SharedInformer<Pod> otherNs = factory.informerFor(Pod.class, inNs.withNamespace("other"));
    SharedInformer<Pod> labelled = factory.informerFor(Pod.class, inNs.withLabelSelector("app=x"));
    SharedInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class, inNs);

    assertThat(b).isSameAs(a);
    assertThat(List.of(otherNs, labelled, configMaps)).doesNotContain(a);
    assertThat(factory.informers()).hasSize(4);
    assertThat(source.created).hasSize(4);
  }

  @Test
  void startAll_completesOnceEveryInformerSynced_andStartsLaterOnesAtOnce() {
    SharedInformer<Pod> pods = factory.informerFor(Pod.class);
    SharedInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class);

    CompletableFuture<Void> all = factory.startAll();
    source.<Pod>get(0).nextList().reply("5", List.of(pod("a", "4")));
    source.<Pod>get(0).nextWatch().accept();
    pods.start().join();
    assertThat(all).isNotDone();
    assertThat(factory.waitForCacheSync(Duration.ofMillis(50))).isFalse();
    source.<ConfigMap>get(1).nextList().reply("6", List.of());
    source.<ConfigMap>get(1).nextWatch().accept();

    all.join();
    assertThat(configMaps.hasSynced()).isTrue();
    assertThat(factory.waitForCacheSync(Duration.ofSeconds(1))).isTrue();
    ResourceDefinitionContext podSets =
        new ResourceDefinitionContext.Builder()
            .withGroup("app.example.com")
            .withVersion("v1alpha1")
            .withKind("PodSet")
            .withPlural("podsets")
            .withNamespaced(true)
            .build();
    SharedInformer<GenericKubernetesResource> late =
        factory.informerFor(podSets, InformerOptions.defaults());
    assertThat(source.<GenericKubernetesResource>get(2).nextList().request.resourceVersion())
        .isEqualTo("0");
    assertThat(late.type()).isEqualTo(GenericKubernetesResource.class);
  }

  @Test
  void close_closesEveryInformer_andRefusesNewOnes() {
    SharedInformer<Pod> pods = factory.informerFor(Pod.class);
    CompletableFuture<Void> synced = factory.startAll();
    source.<Pod>get(0).nextList();

    factory.close();

    assertThat(synced).isCompletedExceptionally();
    assertThat(pods.health().watching()).isFalse();
    assertThatThrownBy(() -> factory.informerFor(Pod.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}
