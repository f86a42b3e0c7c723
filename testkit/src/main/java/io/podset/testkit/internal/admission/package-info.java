/**
 * The kinds and their admission rules: the built-in kinds with the real server's scope, names,
 * subresources and rules, the kinds a CRD defines, and per kind the defaulting and validation
 * Kubernetes 1.34 does (pods, workloads, services, jobs, events, secrets, namespaces), CRD
 * definitions and OpenAPI schema validation of custom resources.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.admission;
