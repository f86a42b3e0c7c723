package io.podset.testkit.junit5;

import io.podset.testkit.FakeApiServer;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a {@link FakeApiServer}: test methods, lifecycle methods
 * and constructors may declare a {@link FakeApiServer} or a fabric8 {@code KubernetesClient}
 * parameter.
 *
 * <pre>{@code
 * @WithFakeApiServer(crds = "podset-crd.yaml", enforceRbac = true)
 * class PodSetTest {
 *   @Test
 *   void creates(KubernetesClient client) { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(FakeApiServerExtension.class)
public @interface WithFakeApiServer {

  /** When servers start and stop. */
  enum Lifecycle {
    /** One server for all tests of the class (the default). */
    PER_CLASS,
    /** A fresh server for each test method. */
    PER_METHOD
  }

  /** Whether tests share one server. */
  Lifecycle lifecycle() default Lifecycle.PER_CLASS;

  /** Class-path resources with CRD YAML to install before the tests. */
  String[] crds() default {};

  /** History window of the server; see {@link FakeApiServer.Builder#historyWindow}. */
  int historyWindow() default 10_000;

  /**
   * Whether the server authorizes requests as kube-apiserver's RBAC does; see {@link
   * FakeApiServer.Builder#enforceRbac()}. The resolved {@code KubernetesClient} is the admin either
   * way; {@link FakeApiServer#serviceAccountClient} gives a client that is judged.
   */
  boolean enforceRbac() default false;
}
