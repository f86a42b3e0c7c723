package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.core.filter.TokenFilter.Inclusion;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.WireFormat;
import io.podset.runtime.protobuf.GoDurations;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decodes objects of the Kubernetes protobuf encoding (the bytes {@code k8s\0} and a {@code
 * runtime.Unknown} envelope around a built-in kind's message) into the client's model classes: the
 * fields a {@link TokenFilter} keeps become the JSON tokens the API server's JSON encoding would
 * have written for them, read by the client's own object mapper, so an object equals what {@link
 * SkippingReader} makes of the same object's JSON through the same filter. The fields the filter
 * drops are skipped by their length, never decoded: most of a pod costs nothing.
 *
 * <p>The JSON rules are the API server's: proto field names are the JSON names; an embedded Go
 * struct's fields sit in the enclosing object; the zero value of a field tagged {@code omitempty}
 * that is no Go pointer, and the zero time, are left out, every other value kept; times,
 * quantities, int-or-strings, durations and embedded JSON have their JSON forms. Fields the schema
 * does not know (a newer server's) are skipped, as the JSON decoder ignores unknown properties of
 * the model. Only kinds of {@code k8s.io/api} are decoded (see {@link #decodes}).
 *
 * <p>Thread-safe and stateless.
 */
final class ProtobufObjects {

  /** The prefix of every Kubernetes protobuf object. */
  static final byte[] MAGIC = {'k', '8', 's', 0};

  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  private static final String BUILT_IN_KINDS = "k8s.io.api.";
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private final ObjectMapper mapper;
  private final KubernetesProtobuf schema;

  ProtobufObjects(ObjectMapper mapper, KubernetesProtobuf schema) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.schema = Objects.requireNonNull(schema, "schema");
  }

  /** Whether objects of {@code kind} in {@code apiVersion} are decoded: built-in kinds only. */
  boolean decodes(String apiVersion, String kind) {
    Descriptor message = schema.message(apiVersion, kind);
    return message != null && message.getFile().getPackage().startsWith(BUILT_IN_KINDS);
  }

  /**
   * The object in {@code bytes[offset, offset + length)}, read by {@code reader} from the fields
   * {@code filter} keeps.
   *
   * @throws IOException if the bytes are not a Kubernetes protobuf object of a known kind
   */
  <V> V read(byte[] bytes, int offset, int length, ObjectReader reader, TokenFilter filter)
      throws IOException {
    TokenBuffer tokens = new TokenBuffer(mapper, false);
    writeObject(bytes, offset, length, filter, tokens);
    try (JsonParser parser = tokens.asParser()) {
      return reader.readValue(parser);
    }
  }

  /** Writes the enveloped object in {@code bytes[offset, offset + length)} as one JSON object. */
  private void writeObject(
      byte[] bytes, int offset, int length, TokenFilter filter, TokenBuffer out)
      throws IOException {
    if (length < MAGIC.length
        || bytes[offset] != 'k'
        || bytes[offset + 1] != '8'
        || bytes[offset + 2] != 's'
        || bytes[offset + 3] != 0) {
      throw new IOException("not a Kubernetes protobuf object: no \"k8s\\x00\" prefix");
    }
    String apiVersion = "";
    String kind = "";
    int rawStart = offset;
    int rawLength = 0;
    CodedInputStream in =
        CodedInputStream.newInstance(bytes, offset + MAGIC.length, length - MAGIC.length);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> { // typeMeta
          int end = in.pushLimit(in.readRawVarint32());
          for (int t = in.readTag(); t != 0; t = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(t)) {
              case 1 -> apiVersion = in.readStringRequireUtf8();
              case 2 -> kind = in.readStringRequireUtf8();
              default -> in.skipField(t);
            }
          }
          in.popLimit(end);
        }
        case 2 -> { // raw
          rawLength = in.readRawVarint32();
          rawStart = offset + MAGIC.length + in.getTotalBytesRead();
          in.skipRawBytes(rawLength);
        }
        case 3 -> { // contentEncoding
          String encoding = in.readStringRequireUtf8();
          if (!encoding.isEmpty()) {
            throw new IOException("unsupported contentEncoding \"" + encoding + "\"");
          }
        }
        default -> in.skipField(tag);
      }
    }
    Descriptor type = schema.message(apiVersion, kind);
    if (type == null) {
      throw new IOException(
          "no protobuf schema for apiVersion \"" + apiVersion + "\", kind \"" + kind + "\"");
    }
    out.writeStartObject();
    if (filter.includeProperty("apiVersion") != null) {
      out.writeStringField("apiVersion", apiVersion);
    }
    if (filter.includeProperty("kind") != null) {
      out.writeStringField("kind", kind);
    }
    writeFields(type, bytes, rawStart, rawLength, filter, out);
    out.writeEndObject();
  }

  /**
   * One kept field's value on the wire: a varint (or fixed) value, or the bounds of a
   * length-delimited one.
   */
  private record Span(
      FieldDescriptor field, TokenFilter filter, int wireType, long value, int start, int length) {}

  /** Writes the fields {@code filter} keeps of a {@code type} message, into the open object. */
  private void writeFields(
      Descriptor type, byte[] bytes, int offset, int length, TokenFilter filter, TokenBuffer out)
      throws IOException {
    List<Span> kept = keptFields(type, bytes, offset, length, filter);
    for (int i = 0; i < kept.size(); i++) {
      Span first = kept.get(i);
      if (first == null) {
        continue; // written with an earlier span of its field
      }
      FieldDescriptor field = first.field();
      if (schema.inline(field)) {
        writeFields(field.getMessageType(), bytes, first.start(), first.length(), filter, out);
      } else if (field.isRepeated()) {
        List<Span> all = new ArrayList<>();
        for (int j = i; j < kept.size(); j++) {
          Span s = kept.get(j);
          if (s != null && s.field() == field) {
            all.add(s);
            kept.set(j, null);
          }
        }
        out.writeFieldName(jsonName(field));
        if (field.isMapField()) {
          writeMap(field, all, bytes, out);
        } else {
          writeList(field, all, bytes, out);
        }
      } else if (!omitted(first, bytes)) {
        out.writeFieldName(jsonName(field));
        writeValue(first, bytes, out);
      }
    }
  }

  /** The spans of the fields {@code filter} keeps, in wire order; the others skipped. */
  private List<@Nullable Span> keptFields(
      Descriptor type, byte[] bytes, int offset, int length, TokenFilter filter)
      throws IOException {
    List<@Nullable Span> kept = new ArrayList<>();
    CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      FieldDescriptor field = type.findFieldByNumber(WireFormat.getTagFieldNumber(tag));
      TokenFilter child =
          field == null
              ? null
              : schema.inline(field) ? filter : filter.includeProperty(jsonName(field));
      if (child == null) {
        in.skipField(tag);
        continue;
      }
      int wireType = WireFormat.getTagWireType(tag);
      switch (wireType) {
        case WireFormat.WIRETYPE_VARINT ->
            kept.add(new Span(field, child, wireType, in.readRawVarint64(), 0, 0));
        case WireFormat.WIRETYPE_FIXED64 ->
            kept.add(new Span(field, child, wireType, in.readRawLittleEndian64(), 0, 0));
        case WireFormat.WIRETYPE_FIXED32 ->
            kept.add(new Span(field, child, wireType, in.readRawLittleEndian32(), 0, 0));
        case WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int size = in.readRawVarint32();
          kept.add(new Span(field, child, wireType, 0, offset + in.getTotalBytesRead(), size));
          in.skipRawBytes(size);
        }
        default -> in.skipField(tag);
      }
    }
    return kept;
  }

  private void writeList(FieldDescriptor field, List<Span> spans, byte[] bytes, TokenBuffer out)
      throws IOException {
    out.writeStartArray();
    int index = 0;
    for (Span span : spans) {
      if (span.wireType() == WireFormat.WIRETYPE_LENGTH_DELIMITED
          && field.getJavaType() != FieldDescriptor.JavaType.STRING
          && field.getJavaType() != FieldDescriptor.JavaType.BYTE_STRING
          && field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        index = writePacked(field, span, bytes, index, out);
        continue;
      }
      TokenFilter element = elementFilter(span.filter(), index++);
      if (element != null) {
        writeElement(
            new Span(field, element, span.wireType(), span.value(), span.start(), span.length()),
            bytes,
            out);
      }
    }
    out.writeEndArray();
  }

  /** Numbers of a packed repeated field, one span holding them all. */
  private int writePacked(
      FieldDescriptor field, Span span, byte[] bytes, int index, TokenBuffer out)
      throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, span.start(), span.length());
    while (!in.isAtEnd()) {
      long value =
          switch (field.getJavaType()) {
            case DOUBLE, LONG ->
                field.getType() == FieldDescriptor.Type.DOUBLE
                        || field.getType() == FieldDescriptor.Type.FIXED64
                    ? in.readRawLittleEndian64()
                    : in.readRawVarint64();
            case FLOAT, INT ->
                field.getType() == FieldDescriptor.Type.FLOAT
                        || field.getType() == FieldDescriptor.Type.FIXED32
                    ? in.readRawLittleEndian32()
                    : in.readRawVarint64();
            default -> in.readRawVarint64();
          };
      if (elementFilter(span.filter(), index++) != null) {
        writeScalar(field, value, out);
      }
    }
    return index;
  }

  private static @Nullable TokenFilter elementFilter(TokenFilter list, int index) {
    return list == TokenFilter.INCLUDE_ALL ? list : list.includeElement(index);
  }

  /** A map field: its entries (key 1, value 2) whose keys the filter keeps, as a JSON object. */
  private void writeMap(FieldDescriptor field, List<Span> entries, byte[] bytes, TokenBuffer out)
      throws IOException {
    Descriptor entry = field.getMessageType();
    FieldDescriptor valueField = entry.findFieldByNumber(2);
    out.writeStartObject();
    for (Span span : entries) {
      String key = "";
      Span value = null;
      CodedInputStream in = CodedInputStream.newInstance(bytes, span.start(), span.length());
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        int number = WireFormat.getTagFieldNumber(tag);
        int wireType = WireFormat.getTagWireType(tag);
        if (number == 1 && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          key = in.readStringRequireUtf8();
        } else if (number == 2 && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          int size = in.readRawVarint32();
          value =
              new Span(
                  valueField,
                  span.filter(),
                  wireType,
                  0,
                  span.start() + in.getTotalBytesRead(),
                  size);
          in.skipRawBytes(size);
        } else if (number == 2 && wireType == WireFormat.WIRETYPE_VARINT) {
          value = new Span(valueField, span.filter(), wireType, in.readRawVarint64(), 0, 0);
        } else {
          in.skipField(tag);
        }
      }
      TokenFilter kept =
          span.filter() == TokenFilter.INCLUDE_ALL
              ? span.filter()
              : span.filter().includeProperty(key);
      if (kept == null) {
        continue;
      }
      out.writeFieldName(key);
      if (value == null) {
        writeEmpty(valueField, out);
      } else {
        writeElement(
            new Span(
                valueField, kept, value.wireType(), value.value(), value.start(), value.length()),
            bytes,
            out);
      }
    }
    out.writeEndObject();
  }

  /** An element of a list or a map's value: kept even when empty (a list's length is data). */
  private void writeElement(Span span, byte[] bytes, TokenBuffer out) throws IOException {
    if (omitted(span, bytes)) {
      writeEmpty(span.field(), out);
    } else {
      writeValue(span, bytes, out);
    }
  }

  private static void writeEmpty(FieldDescriptor field, TokenBuffer out) throws IOException {
    if (field.getJavaType() == FieldDescriptor.JavaType.STRING) {
      out.writeString("");
    } else {
      out.writeNull();
    }
  }

  /**
   * Whether the JSON encoding leaves this field out: the zero value of a field tagged {@code
   * omitempty} that is no Go pointer (see {@link KubernetesProtobuf#omitsZero}), the zero time,
   * empty embedded JSON.
   */
  private boolean omitted(Span span, byte[] bytes) throws IOException {
    FieldDescriptor field = span.field();
    return switch (field.getJavaType()) {
      case STRING, BYTE_STRING -> span.length() == 0 && schema.omitsZero(field);
      case BOOLEAN, INT, LONG -> span.value() == 0 && schema.omitsZero(field);
      case MESSAGE -> {
        String type = field.getMessageType().getFullName();
        if (type.equals(META + "Time") || type.equals(META + "MicroTime")) {
          yield span.length() == 0 || timeAt(bytes, span) == null;
        }
        yield span.length() == 0 && isEmbeddedJson(type);
      }
      default -> false;
    };
  }

  private void writeValue(Span span, byte[] bytes, TokenBuffer out) throws IOException {
    FieldDescriptor field = span.field();
    switch (field.getJavaType()) {
      case STRING -> out.writeString(string(bytes, span.start(), span.length()));
      case BYTE_STRING ->
          out.writeString(
              Base64.getEncoder()
                  .encodeToString(
                      java.util.Arrays.copyOfRange(
                          bytes, span.start(), span.start() + span.length())));
      case MESSAGE -> writeMessage(span, bytes, out);
      default -> writeScalar(field, span.value(), out);
    }
  }

  private static void writeScalar(FieldDescriptor field, long value, TokenBuffer out)
      throws IOException {
    switch (field.getJavaType()) {
      case BOOLEAN -> out.writeBoolean(value != 0);
      case INT -> out.writeNumber((int) value);
      case LONG -> out.writeNumber(value);
      case FLOAT -> out.writeNumber(Float.intBitsToFloat((int) value));
      case DOUBLE -> out.writeNumber(Double.longBitsToDouble(value));
      case ENUM -> {
        var constant = field.getEnumType().findValueByNumber((int) value);
        out.writeString(constant == null ? Long.toString(value) : constant.getName());
      }
      default -> throw new IOException(field.getFullName() + ": a number where none belongs");
    }
  }

  /** A message value: the types whose JSON is not their fields, else an object of its fields. */
  private void writeMessage(Span span, byte[] bytes, TokenBuffer out) throws IOException {
    Descriptor type = span.field().getMessageType();
    String name = type.getFullName();
    switch (name) {
      case META + "Time", META + "MicroTime" -> {
        Instant at = timeAt(bytes, span);
        if (at == null) {
          out.writeNull();
        } else {
          out.writeString((name.endsWith("MicroTime") ? MICROS : SECONDS).format(at));
        }
      }
      case META + "Duration" -> out.writeString(GoDurations.format(varint(bytes, span, 1)));
      case "k8s.io.apimachinery.pkg.api.resource.Quantity" ->
          out.writeString(stringField(bytes, span, 1));
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
        if (varint(bytes, span, 1) == 1) {
          out.writeString(stringField(bytes, span, 3));
        } else {
          out.writeNumber((int) varint(bytes, span, 2));
        }
      }
      case "k8s.io.apimachinery.pkg.runtime.RawExtension", META + "FieldsV1" ->
          writeEmbedded(bytes, span, out);
      default -> {
        out.writeStartObject();
        writeFields(type, bytes, span.start(), span.length(), span.filter(), out);
        out.writeEndObject();
      }
    }
  }

  private static boolean isEmbeddedJson(String type) {
    return type.equals("k8s.io.apimachinery.pkg.runtime.RawExtension")
        || type.equals(META + "FieldsV1");
  }

  /** The JSON (or nested protobuf object) carried in field 1's bytes, through the span's filter. */
  private void writeEmbedded(byte[] bytes, Span span, TokenBuffer out) throws IOException {
    int[] raw = bytesField(bytes, span, 1);
    if (raw == null || raw[1] == 0) {
      out.writeNull();
      return;
    }
    if (raw[1] >= MAGIC.length && bytes[raw[0]] == 'k' && bytes[raw[0] + 3] == 0) {
      writeObject(bytes, raw[0], raw[1], span.filter(), out);
      return;
    }
    try (JsonParser json = mapper.createParser(bytes, raw[0], raw[1])) {
      JsonParser filtered =
          span.filter() == TokenFilter.INCLUDE_ALL
              ? json
              : new FilteringParserDelegate(
                  json, span.filter(), Inclusion.INCLUDE_ALL_AND_PATH, true);
      filtered.nextToken();
      out.copyCurrentStructure(filtered);
    }
  }

  /** The time of a {@code Time} or {@code MicroTime} message, or null for Go's zero time. */
  private static @Nullable Instant timeAt(byte[] bytes, Span span) throws IOException {
    long seconds = 0;
    long nanos = 0;
    CodedInputStream in = CodedInputStream.newInstance(bytes, span.start(), span.length());
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> seconds = in.readRawVarint64();
        case 2 -> nanos = in.readRawVarint64();
        default -> in.skipField(tag);
      }
    }
    return seconds == 0 && nanos == 0 ? null : Instant.ofEpochSecond(seconds, nanos);
  }

  private static long varint(byte[] bytes, Span span, int number) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, span.start(), span.length());
    long value = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (WireFormat.getTagFieldNumber(tag) == number
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_VARINT) {
        value = in.readRawVarint64();
      } else {
        in.skipField(tag);
      }
    }
    return value;
  }

  private static String stringField(byte[] bytes, Span span, int number) throws IOException {
    int[] at = bytesField(bytes, span, number);
    return at == null ? "" : string(bytes, at[0], at[1]);
  }

  /** Where field {@code number}'s bytes lie ({start, length}), or null if absent. */
  private static int @Nullable [] bytesField(byte[] bytes, Span span, int number)
      throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, span.start(), span.length());
    int[] at = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (WireFormat.getTagFieldNumber(tag) == number
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int size = in.readRawVarint32();
        at = new int[] {span.start() + in.getTotalBytesRead(), size};
        in.skipRawBytes(size);
      } else {
        in.skipField(tag);
      }
    }
    return at;
  }

  private static String string(byte[] bytes, int start, int length) {
    return new String(bytes, start, length, StandardCharsets.UTF_8);
  }

  /** The proto field names are the JSON names in the kinds of {@code k8s.io/api}. */
  private static String jsonName(FieldDescriptor field) {
    return field.getName();
  }
}
