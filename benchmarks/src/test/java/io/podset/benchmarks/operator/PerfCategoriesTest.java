package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PerfCategoriesTest {

  private static final List<PerfCategories.Window> PHASES =
      List.of(
          new PerfCategories.Window("create", 100.0, 110.0),
          new PerfCategories.Window("delete", 110.0, 120.0));

  // As perf script -F comm,tid,time,ip,sym,dso prints samples: a header, frames leaf first.
  private static final String SCRIPT =
      """
      vert.x-eventloo 16001 100.500000:\s
      \t    7f01 void com.sun.crypto.provider.ChaCha20Cipher.chaCha20Block(int[], long, byte[]) (/tmp/perf-1.map)
      \t    7f02 java.lang.Object com.fasterxml.jackson.databind.ObjectReader.readValue(x) (/tmp/perf-1.map)
      \t    7f03 void io.netty.handler.ssl.SslHandler.unwrap(x) (/tmp/perf-1.map)

      vert.x-eventloo 16001 101.000000:\s
      \t    ffff8 do_syscall_64 ([kernel.kallsyms])
      \t    7f04 java.util.HashMap.putVal(x) (/tmp/perf-1.map)
      \t    7f05 java.lang.Object com.fasterxml.jackson.core.JsonParser.nextToken() (/tmp/perf-1.map)
      \t    7f06 void io.podset.runtime.informer.transport.HttpWatch.decode(x) (/tmp/perf-1.map)

      controller-pods-3 16010 105.000000:\s
      \t    7f0a Interpreter (/tmp/perf-1.map)
      \t    7f07 void io.podset.operator.PodSetPlanner.plan(x) (/tmp/perf-1.map)
      \t    7f08 void io.podset.runtime.controller.DefaultController.process(x) (/tmp/perf-1.map)

      C1 CompilerThre 16005 111.000000:\s
      \t    a1 Compilation::compile_method (/usr/lib/jvm/lib/server/libjvm.so)

      main 16000 99.000000:\s
      \t    7f09 void io.podset.operator.cli.Main.main(x) (/tmp/perf-1.map)
      """;

  private static PerfCategories read() throws Exception {
    return PerfCategories.read(new BufferedReader(new StringReader(SCRIPT)), PHASES);
  }

  @Test
  void aSample_countsForItsLeafMostFrameOfOurCodeOrALibrary_jdkAndNativeFramesForTheirCaller()
      throws Exception {
    Map<String, Map<String, Integer>> create = read().samples("create");

    assertThat(create.get("vert.x-eventloo"))
        .containsExactlyInAnyOrderEntriesOf(Map.of("TLS", 1, "JSON (Jackson)", 1));
    assertThat(create.get("controller-pods")).containsExactlyEntriesOf(Map.of("reconciler", 1));
  }

  @Test
  void samplesFallIntoThePhaseOfTheirTime_andOutsideEveryPhaseCountNowhere() throws Exception {
    PerfCategories categories = read();

    assertThat(categories.samples("delete"))
        .containsExactlyEntriesOf(
            Map.of("C1 CompilerThre", Map.of("JVM (collector, compilers, runtime)", 1)));
    assertThat(categories.samples("create")).doesNotContainKey("main");
  }

  @Test
  void markdown_givesCpuSecondsBySamplingRate_andWhereTheLeafFramesWere() throws Exception {
    String markdown = read().markdown(10, 2);

    assertThat(markdown)
        .contains("## create: 3 samples, 0.30 CPU-s at 10 Hz")
        .contains("| category | all threads | share | vert.x-eventloo | controller-pods |")
        .contains("| TLS | 0.10 | 33.3% | 0.10 | 0.00 |")
        .contains("| reconciler | 0.10 | 33.3% | 0.00 | 0.10 |")
        .contains("| (all) | 0.30 | 100% | 0.20 | 0.10 |")
        .contains(
            "Leaf frames: Java (JIT or interpreter) 66.7%, kernel 33.3%; in the interpreter (the"
                + " leaf-most Java frame not compiled yet): 33.3%")
        .contains("## delete: 1 samples, 0.10 CPU-s at 10 Hz");
  }
}
