package io.podset.runtime.informer.transport;

/**
 * How an informer's watch reaches the API server ({@link
 * io.podset.runtime.informer.InformerOptions#watchTransport()}).
 */
public enum WatchTransport {

  /**
   * HTTP streaming ({@code ?watch=true}) over the fabric8 client's HTTP client: each event is
   * decoded and handed to the informer on the connection's own I/O thread, with no thread hand-off
   * before the informer's cache. The default. For a built-in kind (pods, deployments...) the watch
   * asks for the Kubernetes protobuf encoding, as client-go's informers do, and takes JSON when the
   * server answers JSON; custom resources have no protobuf encoding and are watched in JSON. That
   * thread may also serve other connections of the same client (an event loop): what the informer
   * does per event (the transform, the cache update, inline handlers) delays them, so keep those
   * fast.
   */
  HTTP_STREAM,

  /**
   * As {@link #HTTP_STREAM}, in newline-delimited JSON for every kind: for a server or proxy that
   * mishandles protobuf, or to read the watch's traffic.
   */
  HTTP_STREAM_JSON,

  /**
   * fabric8's own watch (a WebSocket, or HTTP when the client is configured for HTTP watches),
   * whose events reach the informer through fabric8's executor: one thread hand-off more per event.
   */
  FABRIC8
}
