/**
 * Event handlers decide which requests an event on a watched object enqueues: the object itself,
 * its controller owner, or whatever a mapping function returns.
 */
@NullMarked
package io.podset.runtime.handler;

import org.jspecify.annotations.NullMarked;
