package io.podset.benchmarks.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A bare HTTP/1.1 client on one keep-alive socket, for request-rate loops: it writes a request and
 * reads the whole response (Content-Length or chunked) and nothing more, so a loop measures the
 * server rather than the client. Not thread-safe: one per client thread.
 */
public final class RawHttp implements AutoCloseable {

  private final String host;
  private final int port;
  private Socket socket;
  private OutputStream out;
  private InputStream in;

  /** A client of the server at {@code base} (http only); connects on first use. */
  public RawHttp(URI base) {
    this.host = base.getHost();
    this.port = base.getPort();
  }

  /**
   * Sends one request and reads its response.
   *
   * @return the response status
   * @throws IllegalStateException on an error status or an I/O failure
   */
  public int send(String method, String path, byte[] body) {
    return send(method, path, "application/json", body);
  }

  /**
   * Sends one request with a body of {@code contentType} (a patch's) and reads its response.
   *
   * @return the response status
   * @throws IllegalStateException on an error status or an I/O failure
   */
  public int send(String method, String path, String contentType, byte[] body) {
    try {
      if (socket == null) {
        connect();
      }
      StringBuilder head =
          new StringBuilder(128)
              .append(method)
              .append(' ')
              .append(path)
              .append(" HTTP/1.1\r\nHost: ")
              .append(host)
              .append(':')
              .append(port)
              .append("\r\nAccept: application/json\r\n");
      if (body != null) {
        head.append("Content-Type: ")
            .append(contentType)
            .append("\r\nContent-Length: ")
            .append(body.length)
            .append("\r\n");
      }
      head.append("\r\n");
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      int status = readResponse();
      if (status >= 300) {
        throw new IllegalStateException(method + " " + path + " -> " + status);
      }
      return status;
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(method + " " + path + " failed", e);
    }
  }

  private void connect() throws IOException {
    socket = new Socket(host, port);
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
  }

  private int readResponse() throws IOException {
    String statusLine = readLine();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean closeAfter = false;
    for (String line = readLine(); !line.isEmpty(); line = readLine()) {
      int colon = line.indexOf(':');
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> closeAfter = value.equalsIgnoreCase("close");
        default -> {
          // Other headers do not matter here.
        }
      }
    }
    if (chunked) {
      for (long size = Long.parseLong(readLine().split(";")[0].trim(), 16);
          size > 0;
          size = Long.parseLong(readLine().split(";")[0].trim(), 16)) {
        skip(size);
        readLine();
      }
      while (!readLine().isEmpty()) {
        // Trailers.
      }
    } else if (length >= 0) {
      skip(length);
    } else {
      closeAfter = true;
    }
    if (closeAfter) {
      close();
    }
    return status;
  }

  private void skip(long count) throws IOException {
    long left = count;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          throw new IOException("connection closed in a response body");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed in a response head");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing only.
      }
      socket = null;
    }
  }
}
