package io.podset.runtime.recorder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How the messages of records combined into one Event read: {@code "Created pods: a"} and {@code
 * "Created pods: b, c"} become {@code "Created pods: a, b, c"}; messages that do not share the text
 * before their first {@code ": "} are joined with {@code "; "}. A combined message stops short of
 * {@value #MAX_LENGTH} characters and says how many parts it left out.
 */
final class EventMessages {

  /** The longest combined message, as the Events API's limit on a message (1 KiB). */
  static final int MAX_LENGTH = 1024;

  private static final String HEAD_END = ": ";

  private EventMessages() {}

  /**
   * One message telling {@code messages} (distinct, in the order they were recorded).
   *
   * @throws IllegalArgumentException if {@code messages} is empty
   */
  static String combine(Collection<String> messages) {
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("messages must not be empty");
    }
    if (messages.size() == 1) {
      return messages.iterator().next();
    }
    String head = commonHead(messages);
    List<String> parts = new ArrayList<>(messages.size());
    for (String message : messages) {
      parts.add(head == null ? message : message.substring(head.length() + HEAD_END.length()));
    }
    String separator = head == null ? "; " : ", ";
    StringBuilder combined = new StringBuilder(head == null ? "" : head + HEAD_END);
    for (int i = 0; i < parts.size(); i++) {
      String part = (i == 0 ? "" : separator) + parts.get(i);
      String more = " and " + (parts.size() - i) + " more";
      boolean last = i == parts.size() - 1;
      int room = MAX_LENGTH - (last ? 0 : more.length());
      if (i > 0 && combined.length() + part.length() > room) {
        return combined.append(more).toString();
      }
      combined.append(part);
    }
    return combined.toString();
  }

  /** The text before the first {@code ": "} when all messages share it, else null. */
  private static @Nullable String commonHead(Collection<String> messages) {
    String head = null;
    for (String message : messages) {
      int end = message.indexOf(HEAD_END);
      if (end <= 0) {
        return null;
      }
      String own = message.substring(0, end);
      if (head == null) {
        head = own;
      } else if (!head.equals(own)) {
        return null;
      }
    }
    return head;
  }
}
