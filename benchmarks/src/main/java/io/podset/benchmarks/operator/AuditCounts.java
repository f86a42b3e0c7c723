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

/**
 * The API requests of one contender in the API server's audit log (JSON lines, stage
 * ResponseComplete or Panic), between two marks, by verb and resource.
 */
final class AuditCounts {

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditCounts() {}

  /** How many lines the log had at a moment. */
  record Mark(long lines) {}

  /** Which requests count for the contender. */
  record Counter(String userAgentPart) {

    /**
     * How many of the contender's requests the log holds so far, its periodic lag probes left out:
     * a cheap count (no JSON parsed for other agents' lines) to wait on. The probes ({@code list
     * ?limit=1} of each informer's resource every 5 s) never stop, and two informers' probes that
     * fall 2.5 s apart leave no 3-s quiet: a phase's settle then timed out after 2 minutes.
     */
    long requests(Path log) {
      return read(log).stream()
          .filter(line -> line.contains(userAgentPart))
          .filter(this::counts)
          .count();
    }

    private boolean counts(String line) {
      JsonNode event;
      try {
        event = JSON.readTree(line);
      } catch (IOException e) {
        return false;
      }
      return event.path("userAgent").asText("").contains(userAgentPart) && !isLagProbe(event);
    }

    /** A lag probe of our informers: a list of one object, nothing else in the query. */
    private static boolean isLagProbe(JsonNode event) {
      return event.path("verb").asText("").equals("list")
          && event.path("requestURI").asText("").endsWith("?limit=1");
    }

    /** Requests between the marks, by {@code verb resource[/subresource]}. */
    Map<String, Integer> between(Path log, Mark from, Mark to) {
      Map<String, Integer> counts = new TreeMap<>();
      List<String> lines = read(log);
      for (long i = from.lines(); i < Math.min(to.lines(), lines.size()); i++) {
        JsonNode event;
        try {
          event = JSON.readTree(lines.get((int) i));
        } catch (IOException e) {
          continue;
        }
        if (!event.path("userAgent").asText("").contains(userAgentPart)) {
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
   * Whether the log shows a watch or list of {@code resource} by an agent whose user agent contains
   * {@code userAgentPart}.
   */
  static boolean watched(Path log, String userAgentPart, String resource) {
    return read(log).stream()
        .filter(line -> line.contains(userAgentPart) && line.contains(resource))
        .anyMatch(
            line -> {
              JsonNode event;
              try {
                event = JSON.readTree(line);
              } catch (IOException e) {
                return false;
              }
              String verb = event.path("verb").asText("");
              return event.path("userAgent").asText("").contains(userAgentPart)
                  && (verb.equals("watch") || verb.equals("list"))
                  && event.path("objectRef").path("resource").asText("").equals(resource);
            });
  }

  static Counter userAgentContaining(String part) {
    return new Counter(part);
  }

  static Mark mark(Path log) {
    return new Mark(Files.exists(log) ? read(log).size() : 0);
  }

  private static List<String> read(Path log) {
    try {
      return Files.exists(log) ? Files.readAllLines(log) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + log, e);
    }
  }
}
