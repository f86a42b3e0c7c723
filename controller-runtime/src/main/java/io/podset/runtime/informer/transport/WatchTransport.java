package io.podset.runtime.informer.transport;

/**
 * How an informer's watch reaches the API server ({@link
 * io.podset.runtime.informer.InformerOptions#watchTransport()}).
 */
public enum WatchTransport {

  /**
   * HTTP streaming ({@code ?watch=true}, newline-delimited JSON) over the fabric8 client's HTTP
   * client: each event is decoded and handed to the informer on the connection's own I/O thread,
   * with no thread hand-off before the informer's cache. The default. That thread may also serve
   * other connections of the same client (an event loop): what the informer does per event (the
   * transform, the cache update, inline handlers) delays them, so keep those fast.
   */
  HTTP_STREAM,

  /**
   * fabric8's own watch (a WebSocket, or HTTP when the client is configured for HTTP watches),
   * whose events reach the informer through fabric8's executor: one thread hand-off more per event.
   */
  FABRIC8
}
