package io.podset.benchmarks.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podset.benchmarks.server.Pods;
import io.podset.operator.PodSetController;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One projection of a pod by the operator's pod informer transform ({@link
 * PodSetController#podTransform()}), the copy the cache keeps, over 1024 whole decoded pods of
 * {@code pod.json} in turn (as {@link ProjectedDecode} makes them). Run it with the operator's
 * C1-only JVM as well as the default one:
 *
 * <pre>{@code
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) \
 *     org.openjdk.jmh.Main ProjectionApply -prof gc [-jvmArgsAppend -XX:TieredStopAtLevel=1]
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ProjectionApply {

  private static final int MASK = 1023;

  private UnaryOperator<HasMetadata> projection;
  private Pod[] pods;
  private int next;

  /** Decodes the pods. */
  @Setup(Level.Trial)
  public void setUp() {
    projection = PodSetController.podTransform();
    pods = new Pod[MASK + 1];
    for (int i = 0; i < pods.length; i++) {
      String json = Pods.json(i, Pods.namespace(i, 10), "5f0c2b9e-3d41-4a8e-9c55-0a1b2c3d4e5f");
      pods[i] = Serialization.unmarshal(json, Pod.class);
    }
  }

  /** The projection of the next pod. */
  @Benchmark
  public HasMetadata apply() {
    return projection.apply(pods[next++ & MASK]);
  }
}
