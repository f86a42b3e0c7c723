package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Configures and starts a {@link RealApiServer}. Each method validates its argument immediately.
 * Not thread-safe; a builder can start several servers.
 */
public final class RealApiServerBuilder {

  /** The controllers run by default when the controller manager is enabled. */
  public static final List<String> DEFAULT_CONTROLLERS =
      List.of("garbage-collector-controller", "namespace-controller");

  private @Nullable ControlPlaneBinaries binaries;
  private boolean controllerManager;
  private List<String> controllers = DEFAULT_CONTROLLERS;
  private final List<CustomResourceDefinition> crds = new ArrayList<>();
  private Duration startTimeout = Duration.ofSeconds(90);
  private final Map<String, String> apiServerFlags = new LinkedHashMap<>();

  RealApiServerBuilder() {}

  /**
   * Uses these binaries instead of {@link ControlPlaneBinaries#locate()}.
   *
   * @throws NullPointerException if {@code binaries} is null
   */
  public RealApiServerBuilder binaries(ControlPlaneBinaries binaries) {
    this.binaries = Objects.requireNonNull(binaries, "binaries");
    return this;
  }

  /**
   * Also runs {@code kube-controller-manager} with {@link #DEFAULT_CONTROLLERS} (unless {@link
   * #controllers} says otherwise). Starting fails if its binary was not found.
   */
  public RealApiServerBuilder withControllerManager() {
    this.controllerManager = true;
    return this;
  }

  /**
   * The controllers the controller manager runs (its {@code --controllers} flag), such as {@code
   * garbage-collector-controller}; implies {@link #withControllerManager()}.
   *
   * @throws NullPointerException if the list or an element is null
   * @throws IllegalArgumentException if the list is empty or a name is blank or contains a comma
   */
  public RealApiServerBuilder controllers(List<String> names) {
    this.controllers = checkControllers(names);
    this.controllerManager = true;
    return this;
  }

  /** Validates a {@code --controllers} list; returns an immutable copy. */
  static List<String> checkControllers(List<String> names) {
    Objects.requireNonNull(names, "names");
    if (names.isEmpty()) {
      throw new IllegalArgumentException("controllers: must name at least one controller");
    }
    for (String name : names) {
      Objects.requireNonNull(name, "controllers element");
      if (name.isBlank() || name.contains(",")) {
        throw new IllegalArgumentException("controllers: invalid controller name '" + name + "'");
      }
    }
    return List.copyOf(names);
  }

  /**
   * A CRD to install once the server is ready; start returns when it is served.
   *
   * @throws NullPointerException if {@code crd} is null
   */
  public RealApiServerBuilder crd(CustomResourceDefinition crd) {
    crds.add(Objects.requireNonNull(crd, "crd"));
    return this;
  }

  /**
   * The CRDs in a YAML file (one or more documents, each a {@code CustomResourceDefinition}).
   *
   * @throws NullPointerException if {@code yaml} is null
   * @throws java.io.UncheckedIOException if the file cannot be read
   * @throws IllegalArgumentException if a document is not a CRD
   */
  public RealApiServerBuilder crdFile(Path yaml) {
    crds.addAll(CrdDocuments.parse(yaml));
    return this;
  }

  /**
   * The CRDs in a YAML stream; the stream is read now, not closed.
   *
   * @param source names the stream in error messages
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a document is not a CRD
   */
  public RealApiServerBuilder crdYaml(InputStream yaml, String source) {
    crds.addAll(CrdDocuments.parse(yaml, source));
    return this;
  }

  /**
   * How long start may take in all (processes ready and CRDs served); default 90 s.
   *
   * @throws NullPointerException if {@code timeout} is null
   * @throws IllegalArgumentException if it is not positive
   */
  public RealApiServerBuilder startTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("startTimeout: must be positive, got " + timeout);
    }
    this.startTimeout = timeout;
    return this;
  }

  /**
   * An extra {@code kube-apiserver} flag, such as {@code ("feature-gates", "X=true")}; it replaces
   * a default of the same name.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is blank or starts with a dash
   */
  public RealApiServerBuilder apiServerFlag(String name, String value) {
    checkFlag("apiServerFlag", name, value);
    apiServerFlags.put(name, value);
    return this;
  }

  /** Validates a flag's name and value for {@code method}'s error messages. */
  static void checkFlag(String method, String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isBlank() || name.startsWith("-")) {
      throw new IllegalArgumentException(
          method + ": name must be given without dashes, got '" + name + "'");
    }
  }

  /** The CRDs collected so far (for tests). */
  List<CustomResourceDefinition> crds() {
    return List.copyOf(crds);
  }

  /**
   * Starts the control plane, waits until it is ready and the CRDs are served.
   *
   * @throws ControlPlaneBinariesMissingException if the binaries are not found
   * @throws ControlPlaneException if a process fails to start or become ready in time; the message
   *     holds the end of its log
   */
  public RealApiServer start() {
    return LocalControlPlane.start(
        settings(binariesOrLocate(), controllerManager ? controllers : List.of(), Map.of(), false));
  }

  /**
   * The settings of a start with {@code found} binaries.
   *
   * @throws ControlPlaneBinariesMissingException if a binary that the settings need is missing
   */
  LocalControlPlane.Settings settings(
      ControlPlaneBinaries found,
      List<String> controllerList,
      Map<String, String> controllerManagerFlags,
      boolean simulatedNodes) {
    if (!controllerList.isEmpty()) {
      requireBinary(found.kubeControllerManager().isPresent(), "kube-controller-manager", found);
    }
    if (simulatedNodes) {
      requireBinary(found.kubeScheduler().isPresent(), "kube-scheduler", found);
      requireBinary(found.kwok().isPresent(), "kwok", found);
    }
    return new LocalControlPlane.Settings(
        found,
        controllerList,
        List.copyOf(crds),
        startTimeout,
        Map.copyOf(apiServerFlags),
        Map.copyOf(controllerManagerFlags),
        simulatedNodes);
  }

  ControlPlaneBinaries binariesOrLocate() {
    return binaries != null ? binaries : ControlPlaneBinaries.locate();
  }

  private static void requireBinary(boolean present, String name, ControlPlaneBinaries found) {
    if (!present) {
      String variable = "TEST_ASSET_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
      throw new ControlPlaneBinariesMissingException(
          name
              + " not found next to "
              + found.kubeApiServer()
              + " (or "
              + variable
              + "); build it with `"
              + ControlPlaneBinaries.BUILD_COMMAND
              + "`");
    }
  }
}
