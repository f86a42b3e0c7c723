/**
 * The vocabulary every room shares, importing no other room: the resource types the server serves,
 * their registry and their rules' contract ({@code TypeRules}, {@code NameRule}), resource paths,
 * the metadata the server sets (names, uids, timestamps, generation), the {@code Status} errors
 * answered, and the JSON helpers.
 *
 * <p>Internal to the testkit, not API: public only so the other rooms of {@code
 * io.podset.testkit.internal} can use it; its types and members change without notice. Tests use
 * {@link io.podset.testkit.FakeApiServer} and the other types of {@code io.podset.testkit}.
 */
package io.podset.testkit.internal.resource;
