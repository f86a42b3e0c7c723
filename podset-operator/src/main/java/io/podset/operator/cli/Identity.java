package io.podset.operator.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** This process's leader election identity: the pod name in a cluster, else host and a nonce. */
final class Identity {

  private Identity() {}

  static String current() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    // Two processes on one host must not share an identity.
    return host + "_" + UUID.randomUUID().toString().substring(0, 8);
  }
}
