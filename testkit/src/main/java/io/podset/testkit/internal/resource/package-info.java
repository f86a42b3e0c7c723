/**
 * The vocabulary every room shares: the resource types the server serves and their registry, the
 * built-in kinds and those a CRD adds, resource paths, the metadata the server sets (names, uids,
 * timestamps, generation), the {@code Status} errors answered, and the JSON helpers.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.resource;
