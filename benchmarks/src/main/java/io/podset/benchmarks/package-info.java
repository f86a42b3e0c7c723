/**
 * Benchmarks of the runtime, the operator and the testkit side by side with peer implementations.
 *
 * <p>Nothing here runs during the build: {@code benchmarks/run.sh} builds the module, runs the JMH
 * benchmarks, the macro harnesses and the Go benchmark, and {@link
 * io.podset.benchmarks.report.Report} turns their output into one line per figure and a Markdown
 * table.
 */
package io.podset.benchmarks;
