package io.podset.runtime.informer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A parsed field path of {@link Projections#keep}: JSON field names joined by dots, each optionally
 * followed by one selector in brackets ({@code metadata.labels[app.kubernetes.io/name]}, {@code
 * status.conditions[type=Ready].status}); a selector may hold dots but not {@code ]}.
 *
 * @param text the path as written
 * @param segments its fields, in order, at least one
 */
record FieldPath(String text, List<Segment> segments) {

  /**
   * One field of a path.
   *
   * @param name the JSON field name
   * @param selector the text between brackets after it, or null
   */
  record Segment(String name, @Nullable String selector) {}

  FieldPath {
    Objects.requireNonNull(text, "text");
    segments = List.copyOf(segments);
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException if it is empty, has an empty field name or selector, or an
   *     unclosed bracket, or anything but a dot after a selector
   */
  static FieldPath parse(String text) {
    Objects.requireNonNull(text, "path");
    List<Segment> segments = new ArrayList<>();
    int i = 0;
    while (true) {
      int start = i;
      while (i < text.length() && text.charAt(i) != '.' && text.charAt(i) != '[') {
        i++;
      }
      String name = text.substring(start, i);
      if (name.isEmpty()) {
        throw malformed(text, "empty field name at " + start);
      }
      String selector = null;
      if (i < text.length() && text.charAt(i) == '[') {
        int close = text.indexOf(']', i);
        if (close < 0) {
          throw malformed(text, "no ']' after '[' at " + i);
        }
        selector = text.substring(i + 1, close);
        if (selector.isEmpty()) {
          throw malformed(text, "empty selector '[]' at " + i);
        }
        i = close + 1;
      }
      segments.add(new Segment(name, selector));
      if (i == text.length()) {
        return new FieldPath(text, segments);
      }
      if (text.charAt(i) != '.') {
        throw malformed(text, "expected '.' at " + i);
      }
      i++;
    }
  }

  /** The path up to and including segment {@code index}, as written. */
  String prefix(int index) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i <= index; i++) {
      Segment s = segments.get(i);
      out.append(i == 0 ? "" : ".").append(s.name());
      if (s.selector() != null) {
        out.append('[').append(s.selector()).append(']');
      }
    }
    return out.toString();
  }

  private static IllegalArgumentException malformed(String text, String why) {
    return new IllegalArgumentException("malformed field path '" + text + "': " + why);
  }
}
