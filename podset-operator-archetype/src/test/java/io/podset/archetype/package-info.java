/**
 * Tests of the archetype: the project it generates is built by maven-invoker-plugin
 * (src/it/website), then checked here as a user would use it: its deploy/ rendered by kubectl, its
 * main run against the testkit's fake API server, its RBAC against its requests, and a second API
 * added as the README says.
 */
package io.podset.archetype;
