package io.podset.operator.cli;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.client.KubernetesClients;

/**
 * Checks that turn the common set-up mistakes into one clear message instead of a retry loop: an
 * unreachable API server and a missing CRD. Missing permissions show up later, on {@code /readyz}
 * and as a start failure naming the forbidden list.
 */
final class Preflight {

  private Preflight() {}

  /** A message describing the problem, or null when the operator can start. */
  static String check(KubernetesClient operatorClient) {
    // Fail fast: a process supervisor restarts us; a long retry loop would only hide the cause.
    Config fast =
        new ConfigBuilder(operatorClient.getConfiguration())
            .withRequestRetryBackoffLimit(1)
            .withRequestRetryBackoffInterval(250)
            .withConnectionTimeout(5_000)
            .build();
    try (KubernetesClient client = KubernetesClients.builder().withConfig(fast).build()) {
      return check(client, fast.getMasterUrl());
    }
  }

  private static String check(KubernetesClient client, String url) {
    try {
      client.getKubernetesVersion();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 401 || e.getCode() == 403) {
        return "the API server at "
            + url
            + " refused our credentials (HTTP "
            + e.getCode()
            + "): "
            + e.getMessage();
      }
      return "cannot reach the API server at " + url + ": " + rootMessage(e);
    }
    try {
      APIResourceList resources = client.getApiResources(PodSet.API_VERSION);
      boolean served =
          resources != null
              && resources.getResources().stream().anyMatch(r -> PodSet.PLURAL.equals(r.getName()));
      if (!served) {
        return "the PodSet CRD ("
            + PodSet.CRD_NAME
            + ") is not installed on "
            + url
            + "; install it with: kubectl apply -f deploy/crds/podsets.app.example.com-v1.yml";
      }
    } catch (KubernetesClientException e) {
      return "cannot read API discovery from " + url + ": " + rootMessage(e);
    }
    return null;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
  }
}
