/**
 * Injectable time for the runtime: a monotonic clock that can also schedule work.
 *
 * <p>Everything in the runtime that waits, backs off or resyncs reads time and schedules through a
 * {@link io.podset.runtime.time.Clock}. Production code uses {@link
 * io.podset.runtime.time.Clock#system()}; tests use {@link io.podset.runtime.time.ManualClock} and
 * move time forward explicitly, so no test has to sleep.
 */
@NullMarked
package io.podset.runtime.time;

import org.jspecify.annotations.NullMarked;
