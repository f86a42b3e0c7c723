package io.podset.testkit.junit5;

/** {@link ApiServerContract} on the fake API server. */
@WithFakeApiServer
class FakeApiServerContractTest extends ApiServerContract {}
