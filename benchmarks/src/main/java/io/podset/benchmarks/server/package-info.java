/**
 * The API server process of the macro benchmarks: our fake or fabric8's CRUD mock server, started
 * in a JVM of its own (pinned to its own CPU by {@code run.sh}), optionally seeded with pods.
 */
package io.podset.benchmarks.server;
