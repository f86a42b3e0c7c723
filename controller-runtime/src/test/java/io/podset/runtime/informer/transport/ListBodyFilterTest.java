package io.podset.runtime.informer.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListBodyFilterTest {

  private static final String MANAGED =
      "[{\"manager\":\"kubectl\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\".\":{},"
          + "\"k:{\\\"name\\\":\\\"]}\\\"}\":{}}}},\"time\":\"2024-01-01T00:00:00Z\"},"
          + "{\"manager\":\"x\",\"list\":[1,[2],{\"a\":\"[\"}]}]";

  private final List<String> tokens = new ArrayList<>();

  /** Filters {@code json}, reading {@code chunk} bytes at a time (1 exercises every boundary). */
  private String filter(String json, boolean drop, int chunk) throws IOException {
    InputStream in =
        new ListBodyFilter(new ByteArrayInputStream(json.getBytes(UTF_8)), drop, tokens::add);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[chunk];
    for (int n = in.read(buffer, 0, chunk); n >= 0; n = in.read(buffer, 0, chunk)) {
      out.write(buffer, 0, n);
    }
    return out.toString(UTF_8);
  }

  private static String list(String meta, String... items) {
    return "{\"kind\":\"PodList\",\"metadata\":"
        + meta
        + ",\"items\":["
        + String.join(",", items)
        + "]}";
  }

  @Test
  void managedFieldsOfListedObjects_becomeNull_whateverTheirContent_atAnyChunkSize()
      throws IOException {
    String pod =
        "{\"metadata\":{\"name\":\"a\",\"managedFields\": "
            + MANAGED
            + ",\"labels\":{\"managedFields\":\"kept\"}},\"spec\":{}}";
    String expected =
        "{\"metadata\":{\"name\":\"a\",\"managedFields\": null,\"labels\":{\"managedFields\":\"kept\"}},\"spec\":{}}";

    for (int chunk : new int[] {1, 2, 3, 7, 64, 8192}) {
      assertThat(filter(list("{}", pod, pod), true, chunk))
          .as("chunk " + chunk)
          .isEqualTo(list("{}", expected, expected));
    }
  }

  @Test
  void emptyManagedFields_stayEmpty_andNullOnesNull() throws IOException {
    String json =
        list(
            "{}",
            "{\"metadata\":{\"managedFields\":[ \n ]}}",
            "{\"metadata\":{\"managedFields\":null}}",
            "{\"metadata\":{\"managedFields\":[1]}}");

    assertThat(filter(json, true, 1))
        .isEqualTo(
            list(
                "{}",
                "{\"metadata\":{\"managedFields\":[]}}",
                "{\"metadata\":{\"managedFields\":null}}",
                "{\"metadata\":{\"managedFields\":null}}"));
  }

  @Test
  void managedFieldsElsewhere_andWithoutDropping_passUnchanged() throws IOException {
    String nested =
        "{\"metadata\":{\"name\":\"d\"},\"spec\":{\"template\":{\"metadata\":{\"managedFields\":"
            + MANAGED
            + "}}},\"managedFields\":"
            + MANAGED
            + "}";
    String json =
        "{\"metadata\":{\"managedFields\":"
            + MANAGED
            + "},\"items\":["
            + nested
            + "],\"other\":{\"items\":[{\"metadata\":{\"managedFields\":[1]}}]}}";
    String withManaged = list("{}", "{\"metadata\":{\"managedFields\":" + MANAGED + "}}");

    assertThat(filter(json, true, 5)).isEqualTo(json);
    assertThat(filter(withManaged, false, 5)).isEqualTo(withManaged);
  }

  @Test
  void continueToken_isHandedOverBeforeTheItems_unescaped() throws IOException {
    String json =
        list(
            "{\"resourceVersion\":\"7\",\"continue\":\"abc\\u003d\\/x\",\"remainingItemCount\":3}",
            "{\"metadata\":{\"name\":\"a\",\"continue\":\"not-this\"}}");
    InputStream in =
        new ListBodyFilter(new ByteArrayInputStream(json.getBytes(UTF_8)), true, tokens::add);
    byte[] head = new byte[json.indexOf("\"items\"")];

    int read = 0;
    while (read < head.length) {
      read += in.read(head, read, head.length - read);
    }

    assertThat(tokens).containsExactly("abc=/x");
    assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo(json.substring(head.length));
    assertThat(tokens).containsExactly("abc=/x");
  }

  @Test
  void noContinueToken_noCallback_andBracesInStringsDoNotCount() throws IOException {
    String json = list("{\"resourceVersion\":\"7\",\"x\":\"{[\\\"\"}", "{\"metadata\":{}}");

    assertThat(filter(json, true, 3)).isEqualTo(json);
    assertThat(tokens).isEmpty();
  }
}
