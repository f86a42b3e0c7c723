package io.podset.runtime.informer.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KubernetesJsonFormsTest {

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  @Test
  void rfc3339_writesWhatTheFormatterWrites_toTheSecondAndToTheMicrosecond() {
    Random random = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      Instant at =
          Instant.ofEpochSecond(
              random.nextLong(-62_000_000_000L, 250_000_000_000L), random.nextInt(1_000_000_000));
      assertThat(KubernetesJsonForms.rfc3339(at, false)).isEqualTo(SECONDS.format(at));
      assertThat(KubernetesJsonForms.rfc3339(at, true)).isEqualTo(MICROS.format(at));
    }
    Instant kube = Instant.parse("2026-12-07T09:05:03.000042Z");
    assertThat(KubernetesJsonForms.rfc3339(kube, false)).isEqualTo("2026-12-07T09:05:03Z");
    assertThat(KubernetesJsonForms.rfc3339(kube, true)).isEqualTo("2026-12-07T09:05:03.000042Z");
  }
}
