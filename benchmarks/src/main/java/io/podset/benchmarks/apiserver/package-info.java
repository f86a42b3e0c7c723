/**
 * Load on an API server running in another JVM ({@link io.podset.benchmarks.server.ServerMain}):
 * our testkit fake against fabric8's CRUD mock server, driven by the same client code.
 */
package io.podset.benchmarks.apiserver;
