package io.podset.testkit.junit5;

import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.SimulatedCluster;
import io.podset.testkit.envtest.SimulatedClusterBuilder;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a {@link SimulatedCluster}, as {@code @WithFakeApiServer}
 * and {@link WithRealApiServer} do against theirs: test methods, lifecycle methods and constructors
 * may declare a {@link SimulatedCluster}, a {@link RealApiServer} or a fabric8 {@code
 * KubernetesClient} (the admin client) parameter, so a test written against a client runs on any of
 * the three by changing its annotation.
 *
 * <pre>{@code
 * @WithSimulatedCluster(nodes = 3, crds = "podset-crd.yaml")
 * class PodSetClusterIT {
 *   @Test
 *   void runs(KubernetesClient client) { ... }   // pods get scheduled, Running and Ready
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
@ExtendWith(SimulatedClusterExtension.class)
public @interface WithSimulatedCluster {

  /** When clusters start and stop. */
  enum Lifecycle {
    /** One cluster for all tests of the class (the default: a start takes seconds). */
    PER_CLASS,
    /** A fresh cluster for each test method. */
    PER_METHOD
  }

  /** Whether tests share one cluster. */
  Lifecycle lifecycle() default Lifecycle.PER_CLASS;

  /** How many simulated nodes the cluster starts with. */
  int nodes() default 3;

  /** Class-path resources with CRD YAML to install before the tests. */
  String[] crds() default {};

  /**
   * The controllers of the controller manager; empty means {@link
   * SimulatedClusterBuilder#DEFAULT_CONTROLLERS} (every controller on by default in a cluster).
   */
  String[] controllers() default {};
}
