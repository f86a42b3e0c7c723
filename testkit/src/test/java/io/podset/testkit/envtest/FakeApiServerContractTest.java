package io.podset.testkit.envtest;

import io.podset.testkit.WithFakeApiServer;

/** {@link ApiServerContract} on the fake API server. */
@WithFakeApiServer
class FakeApiServerContractTest extends ApiServerContract {}
