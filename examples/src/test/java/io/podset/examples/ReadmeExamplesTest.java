package io.podset.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's code blocks are the examples' code: each block preceded by {@code <!-- example:
 * FILE#TAG -->} must equal the lines between {@code // tag::TAG[]} and {@code // end::TAG[]} of
 * FILE (dedented), so the README shows only code that compiles and is tested.
 */
class ReadmeExamplesTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern BLOCK =
      Pattern.compile("<!-- example: (\\S+)#(\\S+) -->\\s*\\n```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void readmeBlocks_equalTheTaggedCodeOfTheExamples() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher matcher = BLOCK.matcher(readme);
    List<String> checked = new ArrayList<>();
    while (matcher.find()) {
      String file = matcher.group(1);
      String tag = matcher.group(2);
      assertThat(matcher.group(3))
          .as("README block from %s#%s (copy the tagged lines into the README)", file, tag)
          .isEqualTo(tagged(Files.readString(ROOT.resolve(file)), tag, file));
      checked.add(file + "#" + tag);
    }
    assertThat(checked).as("README example blocks").hasSizeGreaterThanOrEqualTo(2);
  }

  private static String tagged(String source, String tag, String file) {
    String start = "// tag::" + tag + "[]";
    String end = "// end::" + tag + "[]";
    int from = source.indexOf(start);
    int to = source.indexOf(end);
    assertThat(from).as("%s in %s", start, file).isNotNegative();
    assertThat(to).as("%s in %s", end, file).isGreaterThan(from);
    List<String> lines =
        source
            .substring(source.indexOf('\n', from) + 1, source.lastIndexOf('\n', to))
            .lines()
            .toList();
    int indent =
        lines.stream()
            .filter(line -> !line.isBlank())
            .mapToInt(line -> line.length() - line.stripLeading().length())
            .min()
            .orElse(0);
    StringBuilder text = new StringBuilder();
    for (String line : lines) {
      text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
    }
    return text.toString();
  }
}
