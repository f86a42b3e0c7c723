package io.podset.testkit.envtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks distinct free TCP ports on 127.0.0.1. A port may be taken by someone else between this call
 * and the child process binding it; the launcher retries the start when that happens.
 */
final class FreePorts {

  private FreePorts() {}

  /** {@code count} distinct ports, free at the time of the call. */
  static int[] allocate(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find free loopback ports", e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing a listening socket that accepted nothing cannot lose data
        }
      }
    }
  }
}
