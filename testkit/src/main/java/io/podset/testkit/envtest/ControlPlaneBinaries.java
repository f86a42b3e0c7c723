package io.podset.testkit.envtest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the control-plane executables are: {@code kube-apiserver}, {@code etcd} and, optionally,
 * {@code kube-controller-manager}, {@code kube-scheduler} and {@code kwok} (the last two for a
 * {@link SimulatedCluster}).
 *
 * <p>{@link #locate()} searches, for each executable, in this order:
 *
 * <ol>
 *   <li>its own variable, as controller-runtime's envtest: {@code TEST_ASSET_KUBE_APISERVER},
 *       {@code TEST_ASSET_ETCD}, {@code TEST_ASSET_KUBE_CONTROLLER_MANAGER}, {@code
 *       TEST_ASSET_KUBE_SCHEDULER}, {@code TEST_ASSET_KWOK};
 *   <li>the directory named by {@code KUBEBUILDER_ASSETS};
 *   <li>the directory named by {@code PODSET_KUBE_ASSETS_DIR};
 *   <li>the cache directory that {@code testkit/kube/build-control-plane.sh} fills by default:
 *       {@code ${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/}{@value #DEFAULT_KUBE_VERSION}.
 * </ol>
 *
 * @param kubeApiServer the {@code kube-apiserver} executable
 * @param etcd the {@code etcd} executable
 * @param kubeControllerManager the {@code kube-controller-manager} executable, if found
 * @param kubeScheduler the {@code kube-scheduler} executable, if found
 * @param kwok the {@code kwok} executable, if found
 */
public record ControlPlaneBinaries(
    Path kubeApiServer,
    Path etcd,
    Optional<Path> kubeControllerManager,
    Optional<Path> kubeScheduler,
    Optional<Path> kwok) {

  /** The Kubernetes release that the build script builds by default (kept in step with it). */
  public static final String DEFAULT_KUBE_VERSION = "v1.34.4";

  /** The command that builds the binaries, relative to the repository root. */
  public static final String BUILD_COMMAND = "testkit/kube/build-control-plane.sh";

  /** System property that makes missing binaries a failure instead of a skip. */
  public static final String REQUIRED_PROPERTY = "podset.envtest.required";

  /**
   * Whether missing binaries must fail the tests that need them rather than skip them: the {@code
   * CI} environment variable is set to anything but {@code false}, or the system property {@value
   * #REQUIRED_PROPERTY} is {@code true}. The JUnit extensions of {@code testkit-junit5} follow it.
   */
  public static boolean required() {
    String ci = System.getenv("CI");
    boolean onCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    return onCi || Boolean.getBoolean(REQUIRED_PROPERTY);
  }

  /**
   * Validates the paths.
   *
   * @throws NullPointerException if an argument is null
   */
  public ControlPlaneBinaries {
    Objects.requireNonNull(kubeApiServer, "kubeApiServer");
    Objects.requireNonNull(etcd, "etcd");
    Objects.requireNonNull(kubeControllerManager, "kubeControllerManager");
    Objects.requireNonNull(kubeScheduler, "kubeScheduler");
    Objects.requireNonNull(kwok, "kwok");
  }

  /**
   * A control plane without scheduler and kwok, enough for a {@link RealApiServer}.
   *
   * @throws NullPointerException if an argument is null
   */
  public ControlPlaneBinaries(Path kubeApiServer, Path etcd, Optional<Path> kubeControllerManager) {
    this(kubeApiServer, etcd, kubeControllerManager, Optional.empty(), Optional.empty());
  }

  /**
   * Finds the binaries from the process environment.
   *
   * @throws ControlPlaneBinariesMissingException if {@code kube-apiserver} or {@code etcd} is not
   *     found; its message lists where it looked and how to build the binaries
   */
  public static ControlPlaneBinaries locate() {
    return locate(System::getenv);
  }

  /** Same as {@link #locate()} with an explicit environment (for tests). */
  static ControlPlaneBinaries locate(Function<String, String> env) {
    Objects.requireNonNull(env, "env");
    List<Path> dirs = searchDirectories(env);
    List<String> looked = new ArrayList<>();
    Optional<Path> apiServer =
        find("kube-apiserver", "TEST_ASSET_KUBE_APISERVER", dirs, env, looked);
    Optional<Path> etcd = find("etcd", "TEST_ASSET_ETCD", dirs, env, looked);
    Optional<Path> kcm =
        find(
            "kube-controller-manager",
            "TEST_ASSET_KUBE_CONTROLLER_MANAGER",
            dirs,
            env,
            new ArrayList<>());
    Optional<Path> scheduler =
        find("kube-scheduler", "TEST_ASSET_KUBE_SCHEDULER", dirs, env, new ArrayList<>());
    Optional<Path> kwok = find("kwok", "TEST_ASSET_KWOK", dirs, env, new ArrayList<>());
    if (apiServer.isEmpty() || etcd.isEmpty()) {
      throw new ControlPlaneBinariesMissingException(
          "Kubernetes control-plane binaries not found (looked for "
              + String.join(", ", looked)
              + "). Build them with `"
              + BUILD_COMMAND
              + "` (needs Go and the Go module proxy; takes minutes on a cold cache), or point"
              + " KUBEBUILDER_ASSETS at a directory holding kube-apiserver, etcd,"
              + " kube-controller-manager, kube-scheduler and kwok.");
    }
    return new ControlPlaneBinaries(apiServer.get(), etcd.get(), kcm, scheduler, kwok);
  }

  /**
   * The directory the build script fills when nothing overrides it.
   *
   * @param env the environment
   */
  static Path defaultCacheDirectory(Function<String, String> env) {
    String xdg = env.apply("XDG_CACHE_HOME");
    Path cache;
    if (xdg != null && !xdg.isBlank()) {
      cache = Path.of(xdg);
    } else {
      String home = env.apply("HOME");
      cache = Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"));
      cache = cache.resolve(".cache");
    }
    return cache.resolve("podset").resolve("kube").resolve(DEFAULT_KUBE_VERSION);
  }

  private static List<Path> searchDirectories(Function<String, String> env) {
    List<Path> dirs = new ArrayList<>();
    for (String variable : List.of("KUBEBUILDER_ASSETS", "PODSET_KUBE_ASSETS_DIR")) {
      String value = env.apply(variable);
      if (value != null && !value.isBlank()) {
        dirs.add(Path.of(value));
      }
    }
    dirs.add(defaultCacheDirectory(env));
    return dirs;
  }

  private static Optional<Path> find(
      String name,
      String variable,
      List<Path> dirs,
      Function<String, String> env,
      List<String> looked) {
    String explicit = env.apply(variable);
    if (explicit != null && !explicit.isBlank()) {
      Path path = Path.of(explicit);
      if (Files.isExecutable(path) && Files.isRegularFile(path)) {
        return Optional.of(path.toAbsolutePath());
      }
      looked.add(variable + "=" + explicit + " (not an executable file)");
      return Optional.empty();
    }
    for (Path dir : dirs) {
      Path candidate = dir.resolve(name);
      if (Files.isExecutable(candidate) && Files.isRegularFile(candidate)) {
        return Optional.of(candidate.toAbsolutePath());
      }
    }
    looked.add(name + " in " + dirs);
    return Optional.empty();
  }
}
