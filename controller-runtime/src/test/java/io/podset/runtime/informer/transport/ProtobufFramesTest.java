package io.podset.runtime.informer.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProtobufFramesTest {

  private final List<byte[]> frames = new ArrayList<>();
  private final ProtobufFrames splitter = new ProtobufFrames();

  private boolean collect(byte[] bytes, int offset, int length) {
    frames.add(Arrays.copyOfRange(bytes, offset, offset + length));
    return true;
  }

  private static byte[] frame(int length, int seed) {
    byte[] body = new byte[length];
    new Random(seed).nextBytes(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(length >>> 24);
    out.write(length >>> 16);
    out.write(length >>> 8);
    out.write(length);
    out.writeBytes(body);
    return out.toByteArray();
  }

  private static byte[] body(byte[] frame) {
    return Arrays.copyOfRange(frame, 4, frame.length);
  }

  @Test
  void feed_splitAnywhere_deliversEveryFrameWhole() {
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      frames.clear();
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      List<byte[]> sent = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(6); i++) {
        byte[] frame = frame(random.nextInt(3) == 0 ? 0 : random.nextInt(5000), round * 10 + i);
        sent.add(body(frame));
        stream.writeBytes(frame);
      }
      byte[] all = stream.toByteArray();
      int at = 0;
      while (at < all.length) {
        int n = Math.min(all.length - at, 1 + random.nextInt(random.nextBoolean() ? 8 : 3000));
        ByteBuffer chunk =
            random.nextBoolean()
                ? ByteBuffer.wrap(all, at, n)
                : ByteBuffer.allocateDirect(n).put(all, at, n).flip();
        assertThat(splitter.feed(chunk, this::collect)).isTrue();
        at += n;
      }
      assertThat(splitter.hasPartialFrame()).isFalse();
      assertThat(frames).hasSameSizeAs(sent);
      for (int i = 0; i < sent.size(); i++) {
        assertThat(frames.get(i)).as("round %d frame %d", round, i).isEqualTo(sent.get(i));
      }
    }
  }

  @Test
  void hasPartialFrame_untilItsLastByte() {
    byte[] frame = frame(10, 1);
    splitter.feed(ByteBuffer.wrap(frame, 0, 2), this::collect);
    assertThat(splitter.hasPartialFrame()).isTrue();
    splitter.feed(ByteBuffer.wrap(frame, 2, 9), this::collect);
    assertThat(splitter.hasPartialFrame()).isTrue();
    assertThat(frames).isEmpty();
    splitter.feed(ByteBuffer.wrap(frame, 11, 3), this::collect);
    assertThat(splitter.hasPartialFrame()).isFalse();
    assertThat(frames).singleElement().isEqualTo(body(frame));
  }

  @Test
  void feed_sinkStops_dropsTheRestOfTheChunk() {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.writeBytes(frame(3, 1));
    stream.writeBytes(frame(3, 2));
    boolean go = splitter.feed(ByteBuffer.wrap(stream.toByteArray()), (b, o, l) -> false);
    assertThat(go).isFalse();
  }

  @Test
  void feed_aLengthBeyondTheBound_isRefused() {
    byte[] huge = {0x7f, 0, 0, 0, 1, 2};
    assertThatThrownBy(() -> splitter.feed(ByteBuffer.wrap(huge), this::collect))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("2130706432 bytes, beyond the 67108864");
  }
}
