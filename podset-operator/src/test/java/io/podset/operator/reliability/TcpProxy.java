package io.podset.operator.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP proxy on 127.0.0.1 in front of one operator instance's API server connection, so the test
 * can cut the instance off the way a crash or a network partition would: {@link #kill()} resets
 * every open connection and refuses new ones. Requests that reached the server before are served
 * there as usual; nothing the instance does afterwards reaches it.
 *
 * <p>Thread-safe.
 */
final class TcpProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final Object lock = new Object();
  // Guarded by lock: every socket opened on either side, until killed.
  private final List<Socket> sockets = new ArrayList<>();
  // Guarded by lock.
  private boolean killed;

  private TcpProxy(ServerSocket listener, InetSocketAddress target) {
    this.listener = listener;
    this.target = target;
  }

  /** Starts a proxy to {@code targetPort} on 127.0.0.1. */
  static TcpProxy start(int targetPort) {
    try {
      ServerSocket listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
      TcpProxy proxy =
          new TcpProxy(
              listener, new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
      Thread acceptor = new Thread(proxy::accept, "proxy-accept-" + listener.getLocalPort());
      acceptor.setDaemon(true);
      acceptor.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The port clients connect to. */
  int port() {
    return listener.getLocalPort();
  }

  private void accept() {
    while (true) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // killed
      }
      Socket server = new Socket();
      try {
        server.connect(target);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
      } catch (IOException e) {
        reset(client);
        reset(server);
        continue;
      }
      synchronized (lock) {
        if (killed) {
          reset(client);
          reset(server);
          return;
        }
        sockets.add(client);
        sockets.add(server);
      }
      pump(client, server, "up");
      pump(server, client, "down");
    }
  }

  private void pump(Socket from, Socket to, String direction) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
                to.shutdownOutput();
              } catch (IOException e) {
                reset(from);
                reset(to);
              }
            },
            "proxy-" + direction + "-" + port());
    thread.setDaemon(true);
    thread.start();
  }

  /** Resets every connection and refuses new ones, as a crashed process or a cut cable. */
  void kill() {
    List<Socket> open;
    synchronized (lock) {
      killed = true;
      open = new ArrayList<>(sockets);
      sockets.clear();
    }
    try {
      listener.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    open.forEach(TcpProxy::reset);
  }

  private static void reset(Socket socket) {
    try {
      if (!socket.isClosed()) {
        socket.setSoLinger(true, 0);
        socket.close();
      }
    } catch (IOException e) {
      // Gone already.
    }
  }

  @Override
  public void close() {
    kill();
  }
}
