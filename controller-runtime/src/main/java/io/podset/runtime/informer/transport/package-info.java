/**
 * The HTTP transport of informers: the {@link io.podset.runtime.informer.transport.ListerWatcher} a
 * reflector lists and watches through, its requests, pages and watch events, and the
 * implementations over the fabric8 client ({@link
 * io.podset.runtime.informer.transport.Transports}).
 *
 * <p>Lists stream through the fabric8 client's HTTP client, decoded as they arrive: the next page
 * is requested as soon as the continue token is read (before the items), and managed fields can be
 * skipped in the byte stream instead of decoded and dropped. For an informer whose transform is a
 * field projection, lists and HTTP-stream watch events are decoded through a Jackson token filter,
 * so the parser skips every field the projection drops. Watches are HTTP streams ({@link
 * io.podset.runtime.informer.transport.WatchTransport#HTTP_STREAM}) whose events are decoded and
 * handed on on the connection's I/O thread, read only as fast as the informer takes them: for a
 * built-in kind in the Kubernetes protobuf encoding when the server offers it, as client-go's
 * informers watch (the fields a projection drops are then skipped by their length, never
 * tokenized), else newline-delimited JSON; {@link
 * io.podset.runtime.informer.transport.WatchTransport#FABRIC8} uses fabric8's watch instead, on a
 * client that does not reconnect by itself.
 *
 * <p>Nothing here retries or recovers: every failure reaches the reflector as described on {@code
 * ListerWatcher}, and the reflector decides (re-watch, relist, back off). This package depends on
 * nothing of the informer; the informer reaches it only through {@code ListerWatcher} (and {@link
 * io.podset.runtime.informer.ListerWatchers}, which reads the informer's options).
 */
@NullMarked
package io.podset.runtime.informer.transport;

import org.jspecify.annotations.NullMarked;
