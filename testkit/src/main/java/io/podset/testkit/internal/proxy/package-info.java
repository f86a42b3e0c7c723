/**
 * The forwarding end of {@link io.podset.testkit.FaultProxy}: requests sent on to another API
 * server through fabric8's HTTP client (its TLS and authentication), complete answers returned as
 * they are, and watch bodies split into their event lines so the fault rules shared with the fake
 * API server can hold back, delay, drop or cut them.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FaultProxy}.
 */
package io.podset.testkit.internal.proxy;
