/**
 * Admission rules per kind: name rules, defaulting and validation of built-in kinds as Kubernetes
 * 1.34 does them (pods, workloads, services, jobs, events, secrets, namespaces), CRD definitions
 * and OpenAPI schema validation of custom resources.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.admission;
