package io.podset.testkit.junit5;

import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.RealApiServerBuilder;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a {@link RealApiServer}, as {@code @WithFakeApiServer} does
 * against the fake: test methods, lifecycle methods and constructors may declare a {@link
 * RealApiServer} or a fabric8 {@code KubernetesClient} (the admin client) parameter.
 *
 * <pre>{@code
 * @WithRealApiServer(crds = "podset-crd.yaml", controllerManager = true)
 * class PodSetIT {
 *   @Test
 *   void creates(KubernetesClient client) { ... }
 * }
 * }</pre>
 *
 * <p>Without binaries the tests are skipped with a message saying how to build them, or fail when
 * binaries are required (see {@link ControlPlaneBinaries#required()}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RealApiServerExtension.class)
public @interface WithRealApiServer {

  /** When servers start and stop. */
  enum Lifecycle {
    /** One server for all tests of the class (the default: a start takes seconds). */
    PER_CLASS,
    /** A fresh server for each test method. */
    PER_METHOD
  }

  /** Whether tests share one server. */
  Lifecycle lifecycle() default Lifecycle.PER_CLASS;

  /** Class-path resources with CRD YAML to install before the tests. */
  String[] crds() default {};

  /** Whether kube-controller-manager runs too (garbage collector and namespace controller). */
  boolean controllerManager() default false;

  /**
   * The controllers of the controller manager when it runs; empty means {@link
   * RealApiServerBuilder#DEFAULT_CONTROLLERS}.
   */
  String[] controllers() default {};
}
