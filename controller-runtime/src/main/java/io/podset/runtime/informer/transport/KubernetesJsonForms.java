package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.podset.runtime.protobuf.GoDurations;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * The Kubernetes protobuf messages whose JSON is not an object of their fields: times, durations,
 * quantities and int-or-strings are JSON strings or numbers, and two messages carry embedded JSON.
 */
final class KubernetesJsonForms {

  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  private static final String TIME = META + "Time";
  private static final String MICRO_TIME = META + "MicroTime";
  private static final String DURATION = META + "Duration";
  private static final String QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity";
  private static final String INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
  private static final String RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension";
  private static final String FIELDS_V1 = META + "FieldsV1";
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private KubernetesJsonForms() {}

  /** Whether messages of {@code type} (a full name) carry JSON in their field 1's bytes. */
  static boolean isEmbeddedJson(String type) {
    return type.equals(RAW_EXTENSION) || type.equals(FIELDS_V1);
  }

  /**
   * Whether {@code value}, a message, is what JSON leaves out: Go's zero time, no embedded JSON.
   */
  static boolean isOmitted(WireValue value, byte[] bytes) throws IOException {
    String type = value.field().getMessageType().getFullName();
    if (type.equals(TIME) || type.equals(MICRO_TIME)) {
      return time(value, bytes) == null;
    }
    return value.length() == 0 && isEmbeddedJson(type);
  }

  /**
   * Writes {@code value}, a message, as its JSON string or number if its type has one.
   *
   * @return false if its type's JSON is an object of its fields (nothing written)
   */
  static boolean write(WireValue value, byte[] bytes, TokenBuffer out) throws IOException {
    String type = value.field().getMessageType().getFullName();
    switch (type) {
      case TIME, MICRO_TIME -> {
        Instant at = time(value, bytes);
        if (at == null) {
          out.writeNull();
        } else {
          out.writeString((type.equals(MICRO_TIME) ? MICROS : SECONDS).format(at));
        }
      }
      case DURATION -> out.writeString(GoDurations.format(value.varintField(bytes, 1)));
      case QUANTITY -> out.writeString(value.textField(bytes, 1));
      case INT_OR_STRING -> {
        if (value.varintField(bytes, 1) == 1) {
          out.writeString(value.textField(bytes, 3));
        } else {
          out.writeNumber((int) value.varintField(bytes, 2));
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  /** The time of a {@code Time} or {@code MicroTime} message, or null for Go's zero time. */
  private static @Nullable Instant time(WireValue value, byte[] bytes) throws IOException {
    long seconds = value.varintField(bytes, 1);
    long nanos = value.varintField(bytes, 2);
    return seconds == 0 && nanos == 0 ? null : Instant.ofEpochSecond(seconds, nanos);
  }
}
