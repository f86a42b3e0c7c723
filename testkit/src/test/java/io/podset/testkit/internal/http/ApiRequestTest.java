package io.podset.testkit.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A request's path is split into its segments once, as every stage used to split it. */
class ApiRequestTest {

  private static ApiRequest get(String path) {
    return new ApiRequest("GET", path, Map.of(), Map.of(), new byte[0], false);
  }

  @Test
  void segments_areTheNonEmptyPartsBetweenSlashes() {
    assertThat(get("/api/v1/namespaces/default/configmaps/x").segments())
        .containsExactly("api", "v1", "namespaces", "default", "configmaps", "x");
    assertThat(get("//apis/apps//v1/deployments/").segments())
        .containsExactly("apis", "apps", "v1", "deployments");
    assertThat(get("version").segments()).containsExactly("version");
  }

  @Test
  void segments_ofTheRoot_areNone() {
    assertThat(get("/").segments()).isEmpty();
    assertThat(get("").segments()).isEmpty();
    assertThat(get("///").segments()).isEmpty();
  }
}
