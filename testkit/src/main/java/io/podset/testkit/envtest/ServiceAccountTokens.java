package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * A bearer token of a ServiceAccount on a real API server, as a workload gets one: the account is
 * created if it does not exist, and a TokenRequest (one hour) is made for it with the admin's
 * client.
 */
final class ServiceAccountTokens {

  private ServiceAccountTokens() {}

  static String token(KubernetesClient admin, String namespace, String serviceAccount) {
    try {
      admin
          .serviceAccounts()
          .inNamespace(namespace)
          .resource(
              new ServiceAccountBuilder()
                  .withNewMetadata()
                  .withName(serviceAccount)
                  .endMetadata()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    return admin
        .serviceAccounts()
        .inNamespace(namespace)
        .withName(serviceAccount)
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus()
        .getToken();
  }
}
