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
import com.google.protobuf.WireFormat;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * the model. Watches ask for protobuf only for kinds of {@code k8s.io/api} ({@link #decodes});
 * their ERROR events' {@code meta/v1} Status decodes too.
 *
 * <p>Thread-safe and stateless.
 */
final class ProtobufObjects {

  /** The prefix of every Kubernetes protobuf object. */
  static final byte[] MAGIC = {'k', '8', 's', 0};

  private static final String BUILT_IN_KINDS = "k8s.io.api.";

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
    if (length < MAGIC.length || !Arrays.equals(bytes, offset, offset + 4, MAGIC, 0, 4)) {
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
    writeFields(MessagePlan.of(type, schema), bytes, rawStart, rawLength, filter, out);
    out.writeEndObject();
  }

  /** Writes the fields {@code filter} keeps of a message, into the open object. */
  private void writeFields(
      MessagePlan plan, byte[] bytes, int offset, int length, TokenFilter filter, TokenBuffer out)
      throws IOException {
    List<@Nullable WireValue> kept = keptFields(plan, bytes, offset, length, filter);
    for (int i = 0; i < kept.size(); i++) {
      WireValue first = kept.get(i);
      if (first == null) {
        continue; // written with an earlier value of its field
      }
      MessagePlan.Field field = first.field();
      if (field.inline()) {
        writeFields(plan.messagePlan(field), bytes, first.start(), first.length(), filter, out);
      } else if (field.descriptor().isRepeated()) {
        // Go writes a list's elements one after the other; gathered anyway, as protobuf allows.
        List<WireValue> all = new ArrayList<>();
        for (int j = i; j < kept.size(); j++) {
          WireValue v = kept.get(j);
          if (v != null && v.field() == field) {
            all.add(v);
            kept.set(j, null);
          }
        }
        out.writeFieldName(field.name());
        if (field.descriptor().isMapField()) {
          writeMap(plan.messagePlan(field), all, bytes, out);
        } else {
          writeList(plan, all, bytes, out);
        }
      } else if (!omitted(first, bytes)) {
        out.writeFieldName(field.name());
        writeValue(plan, first, bytes, out);
      }
    }
  }

  /**
   * The values of the fields {@code filter} keeps, in wire order (an embedded struct's through the
   * same filter); the others skipped, as are fields the schema does not know.
   */
  private static List<@Nullable WireValue> keptFields(
      MessagePlan plan, byte[] bytes, int offset, int length, TokenFilter filter)
      throws IOException {
    @Nullable TokenFilter[] children = plan.childFilters(filter);
    List<@Nullable WireValue> kept = new ArrayList<>();
    CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int number = WireFormat.getTagFieldNumber(tag);
      TokenFilter child = number < children.length ? children[number] : null;
      MessagePlan.Field field = plan.field(number);
      if (child == null || field == null) {
        in.skipField(tag);
        continue;
      }
      int wireType = WireFormat.getTagWireType(tag);
      if (field.descriptor().isMapField() && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        WireValue entry = mapEntry(field, child, in, offset);
        if (entry != null) {
          kept.add(entry);
        }
        continue;
      }
      switch (wireType) {
        case WireFormat.WIRETYPE_VARINT ->
            kept.add(WireValue.number(field, child, wireType, in.readRawVarint64()));
        case WireFormat.WIRETYPE_FIXED64 ->
            kept.add(WireValue.number(field, child, wireType, in.readRawLittleEndian64()));
        case WireFormat.WIRETYPE_FIXED32 ->
            kept.add(WireValue.number(field, child, wireType, in.readRawLittleEndian32()));
        case WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int size = in.readRawVarint32();
          kept.add(WireValue.delimited(field, child, offset + in.getTotalBytesRead(), size));
          in.skipRawBytes(size);
        }
        default -> in.skipField(tag);
      }
    }
    return kept;
  }

  /**
   * The map entry (key 1, value 2) at {@code in}, read through: its key and its value's bounds, or
   * null if {@code filter} drops its key.
   */
  private static @Nullable WireValue mapEntry(
      MessagePlan.Field field, TokenFilter filter, CodedInputStream in, int offset)
      throws IOException {
    int end = in.pushLimit(in.readRawVarint32());
    String key = "";
    int wireType = WireValue.NONE;
    long number = 0;
    int start = 0;
    int length = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int fieldNumber = WireFormat.getTagFieldNumber(tag);
      int type = WireFormat.getTagWireType(tag);
      if (fieldNumber == 1 && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        key = in.readStringRequireUtf8();
      } else if (fieldNumber == 2 && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        wireType = type;
        length = in.readRawVarint32();
        start = offset + in.getTotalBytesRead();
        in.skipRawBytes(length);
      } else if (fieldNumber == 2 && type == WireFormat.WIRETYPE_VARINT) {
        wireType = type;
        number = in.readRawVarint64();
      } else {
        in.skipField(tag);
      }
    }
    in.popLimit(end);
    TokenFilter kept = filter == TokenFilter.INCLUDE_ALL ? filter : filter.includeProperty(key);
    return kept == null ? null : new WireValue(field, kept, wireType, number, start, length, key);
  }

  /** A list: the elements its filter keeps, each kept even when empty (a list's length is data). */
  private void writeList(MessagePlan plan, List<WireValue> values, byte[] bytes, TokenBuffer out)
      throws IOException {
    out.writeStartArray();
    int index = 0;
    for (WireValue value : values) {
      if (value.isDelimited() && value.field().form() == MessagePlan.Form.NUMBER) {
        // Packed numbers: Go never packs, but protobuf allows it.
        CodedInputStream in = CodedInputStream.newInstance(bytes, value.start(), value.length());
        while (!in.isAtEnd()) {
          long number = in.readRawVarint64();
          if (elementFilter(value.filter(), index++) != null) {
            writeNumber(value.field(), number, out);
          }
        }
        continue;
      }
      TokenFilter element = elementFilter(value.filter(), index++);
      if (element != null) {
        writeElement(plan, value.withFilter(element), bytes, out);
      }
    }
    out.writeEndArray();
  }

  private static @Nullable TokenFilter elementFilter(TokenFilter list, int index) {
    return list == TokenFilter.INCLUDE_ALL ? list : list.includeElement(index);
  }

  /** A map: its entries whose keys the filter kept ({@link #mapEntry}), as a JSON object. */
  private void writeMap(
      MessagePlan entryPlan, List<WireValue> entries, byte[] bytes, TokenBuffer out)
      throws IOException {
    MessagePlan.Field valueField = Objects.requireNonNull(entryPlan.field(2), "a map's value");
    out.writeStartObject();
    for (WireValue entry : entries) {
      out.writeFieldName(Objects.requireNonNull(entry.key(), "a map entry's key"));
      if (entry.wireType() == WireValue.NONE) {
        writeEmpty(valueField, out);
      } else {
        writeElement(entryPlan, entry.as(valueField, entry.filter()), bytes, out);
      }
    }
    out.writeEndObject();
  }

  /** An element of a list or a map's value: written even when JSON would leave it out. */
  private void writeElement(MessagePlan plan, WireValue value, byte[] bytes, TokenBuffer out)
      throws IOException {
    if (omitted(value, bytes)) {
      writeEmpty(value.field(), out);
    } else {
      writeValue(plan, value, bytes, out);
    }
  }

  private static void writeEmpty(MessagePlan.Field field, TokenBuffer out) throws IOException {
    if (field.form() == MessagePlan.Form.TEXT) {
      out.writeString("");
    } else {
      out.writeNull();
    }
  }

  /**
   * Whether the JSON encoding leaves this value out: the zero value of a field tagged {@code
   * omitempty} that is no Go pointer (see {@link KubernetesProtobuf#omitsZero}), the zero time, no
   * embedded JSON.
   */
  private static boolean omitted(WireValue value, byte[] bytes) throws IOException {
    MessagePlan.Field field = value.field();
    return switch (field.form()) {
      case TEXT, BYTES -> value.length() == 0 && field.omitsZero();
      case NUMBER -> value.number() == 0 && field.omitsZero();
      case OBJECT -> false;
      default -> KubernetesJsonForms.isOmitted(value, bytes);
    };
  }

  /** A value of a field of {@code plan}'s message. */
  private void writeValue(MessagePlan plan, WireValue value, byte[] bytes, TokenBuffer out)
      throws IOException {
    MessagePlan.Field field = value.field();
    switch (field.form()) {
      case TEXT -> out.writeString(value.text(bytes));
      case BYTES ->
          out.writeString(
              Base64.getEncoder()
                  .encodeToString(
                      Arrays.copyOfRange(bytes, value.start(), value.start() + value.length())));
      case NUMBER -> writeNumber(field, value.number(), out);
      case OBJECT -> {
        out.writeStartObject();
        writeFields(
            plan.messagePlan(field), bytes, value.start(), value.length(), value.filter(), out);
        out.writeEndObject();
      }
      case EMBEDDED_JSON -> writeEmbedded(value, bytes, out);
      default -> KubernetesJsonForms.write(value, bytes, out);
    }
  }

  private static void writeNumber(MessagePlan.Field field, long number, TokenBuffer out)
      throws IOException {
    switch (field.descriptor().getJavaType()) {
      case BOOLEAN -> out.writeBoolean(number != 0);
      case INT -> out.writeNumber((int) number);
      case LONG -> out.writeNumber(number);
      case FLOAT -> out.writeNumber(Float.intBitsToFloat((int) number));
      case DOUBLE -> out.writeNumber(Double.longBitsToDouble(number));
      case ENUM -> {
        var constant = field.descriptor().getEnumType().findValueByNumber((int) number);
        out.writeString(constant == null ? Long.toString(number) : constant.getName());
      }
      default -> throw new IOException(field.name() + ": a number where none belongs");
    }
  }

  /**
   * The JSON (or nested protobuf object) carried in field 1's bytes, through the value's filter.
   */
  private void writeEmbedded(WireValue value, byte[] bytes, TokenBuffer out) throws IOException {
    int[] raw = value.bytesField(bytes, 1);
    if (raw == null || raw[1] == 0) {
      out.writeNull();
      return;
    }
    if (raw[1] >= MAGIC.length && Arrays.equals(bytes, raw[0], raw[0] + 4, MAGIC, 0, 4)) {
      writeObject(bytes, raw[0], raw[1], value.filter(), out);
      return;
    }
    try (JsonParser json = mapper.createParser(bytes, raw[0], raw[1])) {
      JsonParser filtered =
          value.filter() == TokenFilter.INCLUDE_ALL
              ? json
              : new FilteringParserDelegate(
                  json, value.filter(), Inclusion.INCLUDE_ALL_AND_PATH, true);
      filtered.nextToken();
      out.copyCurrentStructure(filtered);
    }
  }
}
