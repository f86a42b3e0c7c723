package io.podset.benchmarks.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a growing log file line by line from where the last read stopped. A line still being
 * written (no newline yet) is left for the next read, so no line is returned cut or twice.
 */
final class LogTail {
  private final Path file;
  private long offset;

  LogTail(Path file) {
    this.file = file;
  }

  /** The complete lines appended since the last call (all of them on the first). */
  List<String> newLines() {
    List<String> lines = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size <= offset) {
        return lines;
      }
      ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size - offset));
      int read;
      do {
        read = channel.read(bytes, offset + bytes.position());
      } while (read >= 0 && bytes.hasRemaining());
      int start = 0;
      byte[] array = bytes.array();
      for (int i = 0; i < bytes.position(); i++) {
        if (array[i] == '\n') {
          lines.add(new String(array, start, i - start, StandardCharsets.UTF_8));
          start = i + 1;
        }
      }
      offset += start;
      return lines;
    } catch (NoSuchFileException e) {
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
