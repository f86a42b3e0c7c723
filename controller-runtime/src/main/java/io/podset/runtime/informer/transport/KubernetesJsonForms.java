package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.databind.util.TokenBuffer;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.podset.runtime.protobuf.GoDurations;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * The Kubernetes protobuf messages whose JSON is a string or a number, not an object of their
 * fields: times, durations, quantities and int-or-strings ({@link MessagePlan.Form}).
 */
final class KubernetesJsonForms {

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private KubernetesJsonForms() {}

  /** Whether {@code value} is what JSON leaves out: Go's zero time, no embedded JSON. */
  static boolean isOmitted(WireValue value, byte[] bytes) throws IOException {
    return switch (value.field().form()) {
      case TIME, MICRO_TIME -> time(value, bytes) == null;
      case EMBEDDED_JSON -> value.length() == 0;
      default -> false;
    };
  }

  /**
   * Writes {@code value}, of a time, duration, quantity or int-or-string, as its JSON string or
   * number.
   */
  static void write(WireValue value, byte[] bytes, TokenBuffer out) throws IOException {
    switch (value.field().form()) {
      case TIME, MICRO_TIME -> {
        Instant at = time(value, bytes);
        if (at == null) {
          out.writeNull();
        } else {
          out.writeString(rfc3339(at, value.field().form() == MessagePlan.Form.MICRO_TIME));
        }
      }
      case DURATION -> out.writeString(GoDurations.format(value.varintField(bytes, 1)));
      case QUANTITY -> out.writeString(value.textField(bytes, 1));
      case INT_OR_STRING -> writeIntOrString(value, bytes, out);
      default ->
          throw new IllegalArgumentException(
              value.field().name() + " has no string or number form");
    }
  }

  // IntOrString: type 1 (0 int, 1 string), intVal 2, strVal 3.
  private static void writeIntOrString(WireValue value, byte[] bytes, TokenBuffer out)
      throws IOException {
    long type = 0;
    int number = 0;
    String text = "";
    CodedInputStream in = CodedInputStream.newInstance(bytes, value.start(), value.length());
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> type = in.readRawVarint64();
        case 2 -> number = (int) in.readRawVarint64();
        case 3 -> text = in.readStringRequireUtf8();
        default -> in.skipField(tag);
      }
    }
    if (type == 1) {
      out.writeString(text);
    } else {
      out.writeNumber(number);
    }
  }

  /**
   * {@code at} as Kubernetes writes times: RFC 3339 in UTC to the second ({@code
   * 2026-12-07T10:00:00Z}), or to the microsecond for a {@code MicroTime}. By hand: a {@link
   * java.time.format.DateTimeFormatter} costs several objects per time, and pods carry many.
   */
  static String rfc3339(Instant at, boolean micros) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(at.getEpochSecond(), 0, ZoneOffset.UTC);
    StringBuilder sb = new StringBuilder(micros ? 27 : 20);
    int year = t.getYear();
    if (year < 1000 || year > 9999) {
      return (micros ? MICROS : SECONDS).format(at); // beyond four digits: the formatter's rules
    }
    sb.append(year);
    two(sb.append('-'), t.getMonthValue());
    two(sb.append('-'), t.getDayOfMonth());
    two(sb.append('T'), t.getHour());
    two(sb.append(':'), t.getMinute());
    two(sb.append(':'), t.getSecond());
    if (micros) {
      String fraction = Integer.toString(1_000_000 + at.getNano() / 1000);
      sb.append('.').append(fraction, 1, 7);
    }
    return sb.append('Z').toString();
  }

  private static void two(StringBuilder sb, int value) {
    sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }

  /** The time of a {@code Time} or {@code MicroTime} message, or null for Go's zero time. */
  private static @Nullable Instant time(WireValue value, byte[] bytes) throws IOException {
    long seconds = 0;
    long nanos = 0;
    CodedInputStream in = CodedInputStream.newInstance(bytes, value.start(), value.length());
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> seconds = in.readRawVarint64();
        case 2 -> nanos = in.readRawVarint64();
        default -> in.skipField(tag);
      }
    }
    return seconds == 0 && nanos == 0 ? null : Instant.ofEpochSecond(seconds, nanos);
  }
}
