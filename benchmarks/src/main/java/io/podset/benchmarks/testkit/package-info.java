/** Macro benchmarks of the fake API server against fabric8's CRUD mock server. */
package io.podset.benchmarks.testkit;
