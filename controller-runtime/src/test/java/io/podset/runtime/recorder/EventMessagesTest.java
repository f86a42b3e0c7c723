package io.podset.runtime.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventMessagesTest {

  @Test
  void combine_oneMessage_isThatMessage() {
    assertThat(EventMessages.combine(List.of("Created pods: a"))).isEqualTo("Created pods: a");
  }

  @Test
  void combine_sameHead_listsTheItems() {
    assertThat(EventMessages.combine(List.of("Created pods: a", "Created pods: b, c")))
        .isEqualTo("Created pods: a, b, c");
  }

  @Test
  void combine_differentHeads_joinsWholeMessages() {
    assertThat(EventMessages.combine(List.of("Created pods: a", "Deleted pods: b")))
        .isEqualTo("Created pods: a; Deleted pods: b");
  }

  @Test
  void combine_messageWithoutHead_joinsWholeMessages() {
    assertThat(EventMessages.combine(List.of("quota exceeded", "Created pods: b")))
        .isEqualTo("quota exceeded; Created pods: b");
  }

  @Test
  void combine_tooLong_stopsAtTheLimitAndCountsTheRest() {
    List<String> messages = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      messages.add("Created pods: pod-" + i);
    }

    String combined = EventMessages.combine(messages);

    assertThat(combined).hasSizeLessThanOrEqualTo(EventMessages.MAX_LENGTH);
    assertThat(combined).startsWith("Created pods: pod-0, pod-1, ");
    int listed = combined.split(", ").length;
    assertThat(combined).endsWith(" and " + (500 - listed) + " more");
  }

  @Test
  void combine_nothing_isRefused() {
    assertThatThrownBy(() -> EventMessages.combine(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messages");
  }
}
