/**
 * Turns the raw output of every benchmark (JMH JSON, {@code go test -bench} text, and {@link
 * io.podset.benchmarks.report.ResultLine}s of the macro harnesses) into one comparison per figure
 * and peer, checked against the goals of issue 10.
 */
package io.podset.benchmarks.report;
