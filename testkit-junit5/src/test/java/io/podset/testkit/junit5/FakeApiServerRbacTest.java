package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.testkit.FakeApiServer;
import org.junit.jupiter.api.Test;

@WithFakeApiServer(enforceRbac = true)
class FakeApiServerRbacTest {

  @Test
  void enforceRbac_judgesServiceAccounts_theResolvedClientIsTheAdmin(
      FakeApiServer server, KubernetesClient admin) {
    assertThat(server.enforcesRbac()).isTrue();
    assertThat(admin.pods().list().getItems()).isEmpty();

    KubernetesClientException refused =
        catchThrowableOfType(
            KubernetesClientException.class,
            () -> server.serviceAccountClient("default", "app").pods().list());

    assertThat(refused.getCode()).isEqualTo(403);
    assertThat(refused.getStatus().getMessage())
        .startsWith(
            "pods is forbidden: User \"system:serviceaccount:default:app\" cannot list resource"
                + " \"pods\"");
  }
}
