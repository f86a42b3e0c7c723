package io.podset.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms under {@code io.podset.testkit.internal} form layers: a room uses only rooms of a lower
 * layer, never one of its own or a higher layer, so there is no circle between them and each room
 * can be read with only what is below it. The layers are those of the map in the {@code
 * io.podset.testkit} package documentation. References are read from the sources (imports and
 * qualified names outside comments), so a test run needs no compiled classes of other modules.
 *
 * <p>A room that has no layer here yet (a new package) is still held to the rule that the rooms
 * form no circle; give it a layer here and in the map when it is added.
 */
class RoomLayersTest {

  private static final Path ROOMS = Path.of("src/main/java/io/podset/testkit/internal");

  /** Each room's layer, bottom (0) to top; see the package documentation of io.podset.testkit. */
  static final Map<String, Integer> LAYERS =
      Map.ofEntries(
          Map.entry("resource", 0),
          Map.entry("watch", 0),
          Map.entry("codec", 1),
          Map.entry("tables", 1),
          Map.entry("http", 1),
          Map.entry("store", 1),
          Map.entry("read", 2),
          Map.entry("admission", 2),
          Map.entry("proxy", 2),
          Map.entry("write", 3),
          Map.entry("openapi", 3),
          Map.entry("controllers", 4),
          Map.entry("auth", 4),
          Map.entry("routes", 5));

  /**
   * The only types of the API package a room may use: the simulated kubelet implements the API's
   * {@code SimulatedKubelet} with its options and registrations. Everything else of the API stands
   * above the rooms.
   */
  private static final Set<String> API_TYPES_FOR_ROOMS =
      Set.of(
          "controllers -> SimulatedKubelet",
          "controllers -> KubeletOptions",
          "controllers -> Registration");

  private static final Pattern ROOM_REFERENCE =
      Pattern.compile("\\bio\\.podset\\.testkit\\.internal\\.([a-z][a-z0-9]*)\\.");
  private static final Pattern API_REFERENCE =
      Pattern.compile("\\bio\\.podset\\.testkit\\.([A-Z]\\w*)");

  @Test
  void everyRoom_usesOnlyRoomsOfLowerLayers() {
    Map<String, Map<String, Set<String>>> graph = graph();
    List<String> upward = new ArrayList<>();
    graph.forEach(
        (room, uses) ->
            uses.forEach(
                (used, files) -> {
                  Integer from = LAYERS.get(room);
                  Integer to = LAYERS.get(used);
                  if (from != null && to != null && to >= from) {
                    upward.add(room + " (" + from + ") -> " + used + " (" + to + ") in " + files);
                  }
                }));
    assertThat(upward).as("references to a room of the same or a higher layer").isEmpty();
  }

  @Test
  void rooms_formNoCircle_newRoomsIncluded() {
    Map<String, Map<String, Set<String>>> graph = graph();
    List<String> circles = new ArrayList<>();
    for (String room : graph.keySet()) {
      List<String> path = circleThrough(room, graph);
      if (path != null) {
        circles.add(String.join(" -> ", path));
      }
    }
    assertThat(circles).as("circles between rooms").isEmpty();
  }

  @Test
  void layers_nameTheRoomsThatExist() {
    assertThat(graph().keySet()).containsAll(LAYERS.keySet());
  }

  @Test
  void rooms_useOfTheApiPackage_isTheKubeletsOnly() {
    List<String> uses = new ArrayList<>();
    for (Map.Entry<String, List<Path>> room : sources().entrySet()) {
      for (Path file : room.getValue()) {
        Matcher m = API_REFERENCE.matcher(code(file));
        while (m.find()) {
          String use = room.getKey() + " -> " + m.group(1);
          if (!API_TYPES_FOR_ROOMS.contains(use)) {
            uses.add(use + " in " + file.getFileName());
          }
        }
      }
    }
    assertThat(uses).as("rooms using the API package above them").isEmpty();
  }

  @Test
  void theCheck_findsAnUpwardReference_andACircle() {
    // The reader of references, on a source that a store class referring to the HTTP room would
    // have: it must see the room through an import and through a qualified name, not in comments.
    String source =
        "package io.podset.testkit.internal.store;\n"
            + "import io.podset.testkit.internal.http.ApiRequest;\n"
            + "// io.podset.testkit.internal.routes.ApiRouter is only mentioned\n"
            + "/** {@link io.podset.testkit.internal.codec.GoDurations} */\n"
            + "class X { String s = \"io.podset.testkit.internal.read.ObjectReads\";"
            + " io.podset.testkit.internal.watch.WatchFrame f; }\n";
    assertThat(roomsReferenced(withoutCommentsAndStrings(source))).containsExactly("http", "watch");

    Map<String, Map<String, Set<String>>> circular = new TreeMap<>();
    circular.put("a", Map.of("b", Set.of("A.java")));
    circular.put("b", Map.of("c", Set.of("B.java")));
    circular.put("c", Map.of("a", Set.of("C.java")));
    assertThat(circleThrough("a", circular)).containsExactly("a", "b", "c", "a");
    circular.put("c", Map.of());
    assertThat(circleThrough("a", circular)).isNull();
  }

  /** room -> room it uses -> files that use it. */
  private static Map<String, Map<String, Set<String>>> graph() {
    Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
    sources()
        .forEach(
            (room, files) -> {
              Map<String, Set<String>> uses = new TreeMap<>();
              for (Path file : files) {
                for (String used : roomsReferenced(code(file))) {
                  if (!used.equals(room)) {
                    uses.computeIfAbsent(used, k -> new TreeSet<>())
                        .add(file.getFileName().toString());
                  }
                }
              }
              graph.put(room, uses);
            });
    return graph;
  }

  private static Set<String> roomsReferenced(String code) {
    Set<String> rooms = new TreeSet<>();
    Matcher m = ROOM_REFERENCE.matcher(code);
    while (m.find()) {
      rooms.add(m.group(1));
    }
    return rooms;
  }

  /** The rooms on a circle from {@code start} back to it, or null when there is none. */
  private static List<String> circleThrough(
      String start, Map<String, Map<String, Set<String>>> graph) {
    return walk(start, start, graph, new ArrayList<>(List.of(start)), new TreeSet<>());
  }

  private static List<String> walk(
      String start,
      String at,
      Map<String, Map<String, Set<String>>> graph,
      List<String> path,
      Set<String> seen) {
    for (String next : graph.getOrDefault(at, Map.of()).keySet()) {
      if (next.equals(start)) {
        List<String> circle = new ArrayList<>(path);
        circle.add(start);
        return circle;
      }
      if (seen.add(next)) {
        path.add(next);
        List<String> found = walk(start, next, graph, path, seen);
        if (found != null) {
          return found;
        }
        path.remove(path.size() - 1);
      }
    }
    return null;
  }

  private static Map<String, List<Path>> sources() {
    Map<String, List<Path>> rooms = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(ROOMS)) {
      for (Path dir : dirs.filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(dir)) {
          rooms.put(
              dir.getFileName().toString(),
              files.filter(f -> f.toString().endsWith(".java")).sorted().toList());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(rooms).as("rooms under " + ROOMS.toAbsolutePath()).isNotEmpty();
    return rooms;
  }

  private static String code(Path file) {
    try {
      return withoutCommentsAndStrings(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The source with comments blanked and string, text block and character literals emptied, so that
   * only code is searched for references.
   */
  static String withoutCommentsAndStrings(String source) {
    StringBuilder code = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = end(source, source.indexOf('\n', i), n);
        code.append(' ');
      } else if (source.startsWith("/*", i)) {
        i = end(source, source.indexOf("*/", i + 2), n - 2) + 2;
        code.append(' ');
      } else if (source.startsWith("\"\"\"", i)) {
        i = end(source, source.indexOf("\"\"\"", i + 3), n - 3) + 3;
        code.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        code.append(c).append(c);
      } else {
        code.append(c);
        i++;
      }
    }
    return code.toString();
  }

  private static int end(String source, int found, int last) {
    return found < 0 ? Math.max(last, 0) : found;
  }
}
