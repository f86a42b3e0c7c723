/**
 * Composable filters over change events.
 *
 * <p>Filters are plain {@link java.util.function.Predicate}s over {@link
 * io.podset.runtime.event.Event}, so {@code and}, {@code or} and {@code negate} compose them. The
 * stock filters in {@link io.podset.runtime.predicate.Predicates} look only at updates and let
 * additions and deletions through, as controller-runtime's do.
 */
@NullMarked
package io.podset.runtime.predicate;

import org.jspecify.annotations.NullMarked;
