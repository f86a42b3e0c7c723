package io.podset.runtime.informer.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLinesTest {

  private final JsonLines lines = new JsonLines();
  private final List<String> seen = new ArrayList<>();

  private boolean feed(String chunk) {
    return lines.feed(ByteBuffer.wrap(chunk.getBytes(UTF_8)), this::collect);
  }

  private boolean collect(byte[] bytes, int offset, int length) {
    seen.add(new String(bytes, offset, length, UTF_8));
    return true;
  }

  @Test
  void feed_linesAcrossChunks_comeOutWhole_blanksAndCarriageReturnsDropped() {
    feed("{\"a\":1}\n{\"b\"");
    feed(":2");
    feed("}\r\n\n  \n{\"c\":3}\n");

    assertThat(seen).containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":3}");
    assertThat(lines.hasPartialFrame()).isFalse();
  }

  @Test
  void hasPartialFrame_onlyForAStartedLine_notForBlanks() {
    feed("{\"a\":1}\n  ");
    assertThat(lines.hasPartialFrame()).isFalse();

    feed("{\"b\"");
    assertThat(lines.hasPartialFrame()).isTrue();
  }

  @Test
  void feed_sinkAskingToStop_dropsTheRestOfTheChunk() {
    boolean went =
        lines.feed(
            ByteBuffer.wrap("one\ntwo\nthree\n".getBytes(UTF_8)),
            (bytes, offset, length) -> {
              seen.add(new String(bytes, offset, length, UTF_8));
              return false;
            });

    assertThat(went).isFalse();
    assertThat(seen).containsExactly("one");
  }

  @Test
  void feed_readsFromTheBuffersPositionToItsLimit_directBuffersToo() {
    ByteBuffer slice = ByteBuffer.wrap("xx{\"a\":1}\nyy".getBytes(UTF_8), 2, 8);
    ByteBuffer direct = ByteBuffer.allocateDirect(8);
    direct.put("{\"b\":2}\n".getBytes(UTF_8)).flip();

    lines.feed(slice, this::collect);
    lines.feed(direct, this::collect);

    assertThat(seen).containsExactly("{\"a\":1}", "{\"b\":2}");
  }

  @Test
  void feed_aLineLargerThanTheInitialBuffer_comesOutWhole() {
    String big = "{\"data\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}";

    for (int i = 0; i < big.length(); i += 1000) {
      feed(big.substring(i, Math.min(big.length(), i + 1000)));
    }
    feed("\n{\"small\":1}\n");

    assertThat(seen).containsExactly(big, "{\"small\":1}");
  }
}
