/** A fake Kubernetes API server for tests (documentation completed below). */
package io.podset.testkit;
