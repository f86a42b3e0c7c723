/**
 * Reliability tests of the operator on the testkit's fake API server: a chaos soak under random
 * faults, a crash and restart, and leader failover, each checked against {@link
 * io.podset.operator.reliability.PodSetInvariants} on every state an outside observer ({@link
 * io.podset.operator.reliability.ClusterHistory}) records, and printing a report.
 */
package io.podset.operator.reliability;
