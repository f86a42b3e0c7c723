package io.podset.examples.website;

import org.slf4j.LoggerFactory;

/**
 * Where websites are announced: a system outside the cluster (a DNS zone, a CDN, a catalogue) that
 * Kubernetes' garbage collector knows nothing about. An entry is removed by the controller's
 * cleanup, which is what the finalizer is for.
 */
public interface SiteDirectory {

  /** Announces {@code host} at {@code address}; idempotent. */
  void publish(String host, String address);

  /** Withdraws {@code host}; idempotent. */
  void unpublish(String host);

  /** A directory that only logs, for running the example without one. */
  static SiteDirectory logging() {
    var log = LoggerFactory.getLogger(SiteDirectory.class);
    return new SiteDirectory() {
      @Override
      public void publish(String host, String address) {
        log.info("publish {} -> {}", host, address);
      }

      @Override
      public void unpublish(String host) {
        log.info("unpublish {}", host);
      }
    };
  }
}
