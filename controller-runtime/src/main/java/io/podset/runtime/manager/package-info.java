/**
 * The manager: what turns controllers into a process that runs safely in a cluster.
 *
 * <p>Leader election follows client-go (Lease, 15 s / 10 s / 2 s) and adds fencing: once the leader
 * has not renewed for the renew deadline, the manager's client refuses its writes, so a deposed
 * leader cannot write after a new one may have started.
 */
@NullMarked
package io.podset.runtime.manager;

import org.jspecify.annotations.NullMarked;
