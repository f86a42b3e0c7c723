/**
 * Status helpers for typed reconcilers: {@link io.podset.runtime.status.Conditions} keeps {@code
 * metav1.Condition}s as Go's {@code meta.SetStatusCondition} does, and {@link
 * io.podset.runtime.status.HasConditions} gives a status class {@code setCondition}.
 */
@NullMarked
package io.podset.runtime.status;

import org.jspecify.annotations.NullMarked;
