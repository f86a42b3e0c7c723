package io.podset.benchmarks.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The API requests of one contender in the API server's audit log (JSON lines, stage
 * ResponseComplete or Panic), between two marks, by verb and resource.
 */
final class AuditCounts {

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditCounts() {}

  /** How many lines the log had at a moment. */
  record Mark(long lines) {}

  /** Which requests in one audit log count for the contender. */
  static final class Counter {
    private final Path log;
    private final String userAgentPart;
    private final LogTail tail;
    private long requests;

    private Counter(Path log, String userAgentPart) {
      this.log = log;
      this.userAgentPart = userAgentPart;
      this.tail = new LogTail(log);
    }

    /**
     * How many of the contender's requests the log holds so far, its periodic lag probes left out:
     * read from where the last call stopped (the log grows to tens of MB at N=1000, and a settle
     * wait asks twice a second), with no JSON parsed for other agents' lines. The probes ({@code
     * list ?limit=1} of each informer's resource every 5 s) never stop, and two informers' probes
     * that fall 2.5 s apart leave no 3-s quiet: a phase's settle then timed out after 2 minutes.
     */
    synchronized long requests() {
      for (String line : tail.newLines()) {
        if (line.contains(userAgentPart)) {
          JsonNode event = parse(line);
          if (isBy(event, userAgentPart) && !isLagProbe(event)) {
            requests++;
          }
        }
      }
      return requests;
    }

    /** A lag probe of our informers: a list of one object, nothing else in the query. */
    private static boolean isLagProbe(JsonNode event) {
      return event.path("verb").asText("").equals("list")
          && event.path("requestURI").asText("").endsWith("?limit=1");
    }

    /** Requests between the marks, by {@code verb resource[/subresource]}. */
    Map<String, Integer> between(Mark from, Mark to) {
      Map<String, Integer> counts = new TreeMap<>();
      List<String> lines = readAll(log);
      for (long i = from.lines(); i < Math.min(to.lines(), lines.size()); i++) {
        JsonNode event = parse(lines.get((int) i));
        if (!isBy(event, userAgentPart)) {
          continue;
        }
        JsonNode ref = event.path("objectRef");
        String resource = ref.path("resource").asText("?");
        if (ref.hasNonNull("subresource")) {
          resource += "/" + ref.path("subresource").asText();
        }
        counts.merge(event.path("verb").asText("?") + " " + resource, 1, Integer::sum);
      }
      return counts;
    }
  }

  /**
   * Turns true once the log shows a watch or list of {@code resource} by an agent whose user agent
   * contains {@code userAgentPart}; each call reads only what was appended since the last.
   */
  static BooleanSupplier watchOrListSeen(Path log, String userAgentPart, String resource) {
    LogTail tail = new LogTail(log);
    boolean[] seen = {false};
    return () -> {
      for (String line : tail.newLines()) {
        if (!seen[0] && line.contains(userAgentPart) && line.contains(resource)) {
          JsonNode event = parse(line);
          String verb = event.path("verb").asText("");
          seen[0] =
              isBy(event, userAgentPart)
                  && (verb.equals("watch") || verb.equals("list"))
                  && event.path("objectRef").path("resource").asText("").equals(resource);
        }
      }
      return seen[0];
    };
  }

  static Counter userAgentContaining(Path log, String part) {
    return new Counter(log, part);
  }

  static Mark mark(Path log) {
    return new Mark(readAll(log).size());
  }

  private static boolean isBy(JsonNode event, String userAgentPart) {
    return event.path("userAgent").asText("").contains(userAgentPart);
  }

  /** The event on a line, or a missing node for a line that is not JSON. */
  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      return JSON.missingNode();
    }
  }

  private static List<String> readAll(Path log) {
    try {
      return Files.exists(log) ? Files.readAllLines(log) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + log, e);
    }
  }
}
