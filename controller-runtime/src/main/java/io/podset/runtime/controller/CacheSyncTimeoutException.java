package io.podset.runtime.controller;

/** Caches did not sync in time: usually a missing CRD, missing RBAC permission or no network. */
public final class CacheSyncTimeoutException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  CacheSyncTimeoutException(String message) {
    super(message);
  }
}
