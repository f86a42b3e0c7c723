package io.podset.benchmarks.apiserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One streaming watch on a bare socket, read to the end by a daemon thread that only counts the
 * bytes: the server renders and sends every event, and the reader costs next to nothing.
 */
final class PodWatch implements AutoCloseable {

  private final URI url;
  private final String path;
  private final AtomicLong bytes = new AtomicLong();
  private Socket socket;

  PodWatch(URI url, String path) {
    this.url = url;
    this.path = path;
  }

  /** Opens the watch and starts reading it. */
  void start() throws IOException {
    socket = new Socket(url.getHost(), url.getPort());
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET " + path + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort() + "\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    InputStream in = socket.getInputStream();
    Thread reader =
        new Thread(
            () -> {
              byte[] buffer = new byte[1 << 16];
              try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                  bytes.addAndGet(n);
                }
              } catch (IOException e) {
                // Closed.
              }
            },
            "pod-watch-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** The bytes read so far. */
  long bytes() {
    return bytes.get();
  }

  @Override
  public void close() throws IOException {
    if (socket != null) {
      socket.close();
    }
  }
}
