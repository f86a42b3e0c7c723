package io.podset.runtime.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KubernetesEventSinkIT {

  private FakeApiServer server;
  private KubernetesEventSink sink;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    sink = new KubernetesEventSink(server.client());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void updateCount_patchesWithoutReadingFirst_andMissingEventIsFalse() {
    String created =
        sink.create(
            new EventBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("web.1")
                .endMetadata()
                .withReason("SuccessfulCreate")
                .withMessage("Created pod: web-a")
                .withCount(1)
                .build());
    RequestJournal.Mark mark = server.journal().mark();

    boolean updated = sink.updateCount("default", "web.1", 2, "2026-01-01T00:00:00Z");
    boolean missing = sink.updateCount("default", "gone.1", 2, "2026-01-01T00:00:00Z");

    // One PATCH per update, no GET before it.
    server.journal().assertNone(RequestMatcher.verb("get").since(mark));
    server.journal().assertCount(RequestMatcher.verb("patch").since(mark), 2);
    assertThat(created).isEqualTo("web.1");
    assertThat(updated).isTrue();
    assertThat(missing).isFalse();
    Event stored = server.client().v1().events().inNamespace("default").withName("web.1").get();
    assertThat(stored.getCount()).isEqualTo(2);
    assertThat(stored.getMetadata().getUid()).isNotNull();
    assertThat(stored.getMessage()).isEqualTo("Created pod: web-a");
  }
}
