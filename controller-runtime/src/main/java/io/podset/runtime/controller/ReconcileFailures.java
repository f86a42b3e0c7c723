package io.podset.runtime.controller;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;

/**
 * Tells the failures a retry is expected to cure (the API server was busy, briefly unavailable or
 * saw a conflicting write; the connection broke) from the ones that point at a bug, so that the
 * former are logged as one line each rather than as a stack trace: under a stream of 429s an
 * operator must not bury its real errors in thousands of identical traces.
 */
final class ReconcileFailures {

  private ReconcileFailures() {}

  /** A conflict (409), throttling (429), server error (5xx) or connection failure in the chain. */
  static boolean isTransient(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        int code = e.getCode();
        if (code == 409 || code == 429 || code >= 500 || (code <= 0 && hasIoCause(e))) {
          return true;
        }
        return false;
      }
      if (t instanceof IOException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static boolean hasIoCause(Throwable error) {
    for (Throwable t = error.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
