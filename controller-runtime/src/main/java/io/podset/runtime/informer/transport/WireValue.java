package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * One value of a protobuf field as it lies in the bytes being decoded: a varint (or fixed) number,
 * or the bounds of a length-delimited value (a string, bytes, a message), with the filter its JSON
 * goes through.
 *
 * @param field the field it is a value of
 * @param filter what of it is kept ({@link TokenFilter#INCLUDE_ALL} for all)
 * @param wireType its wire type ({@link WireFormat})
 * @param number its value, for a varint or fixed wire type
 * @param start where its bytes start, for a length-delimited one
 * @param length how many bytes it has, for a length-delimited one
 * @param key for an entry of a map field, its key (the rest describes its value; {@link #NONE} for
 *     no value); else null
 */
record WireValue(
    MessagePlan.Field field,
    TokenFilter filter,
    int wireType,
    long number,
    int start,
    int length,
    @Nullable String key) {

  /** The wire type of a map entry's value that is not on the wire. */
  static final int NONE = -1;

  static WireValue number(MessagePlan.Field field, TokenFilter filter, int wireType, long number) {
    return new WireValue(field, filter, wireType, number, 0, 0, null);
  }

  static WireValue delimited(MessagePlan.Field field, TokenFilter filter, int start, int length) {
    return new WireValue(
        field, filter, WireFormat.WIRETYPE_LENGTH_DELIMITED, 0, start, length, null);
  }

  /** This value as a value of {@code other}, through {@code otherFilter}. */
  WireValue as(MessagePlan.Field other, TokenFilter otherFilter) {
    return new WireValue(other, otherFilter, wireType, number, start, length, null);
  }

  WireValue withFilter(TokenFilter other) {
    return new WireValue(field, other, wireType, number, start, length, key);
  }

  boolean isDelimited() {
    return wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED;
  }

  /** Its bytes as UTF-8 text. */
  String text(byte[] bytes) {
    return new String(bytes, start, length, StandardCharsets.UTF_8);
  }

  /** In the message this value is, the varint field {@code number}'s value (0 when absent). */
  long varintField(byte[] bytes, int fieldNumber) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, start, length);
    long value = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (WireFormat.getTagFieldNumber(tag) == fieldNumber
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_VARINT) {
        value = in.readRawVarint64();
      } else {
        in.skipField(tag);
      }
    }
    return value;
  }

  /** In the message this value is, where field {@code number}'s bytes lie ({start, length}). */
  int @Nullable [] bytesField(byte[] bytes, int fieldNumber) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, start, length);
    int[] at = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (WireFormat.getTagFieldNumber(tag) == fieldNumber
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int size = in.readRawVarint32();
        at = new int[] {start + in.getTotalBytesRead(), size};
        in.skipRawBytes(size);
      } else {
        in.skipField(tag);
      }
    }
    return at;
  }

  /** In the message this value is, field {@code number}'s text ("" when absent). */
  String textField(byte[] bytes, int fieldNumber) throws IOException {
    int[] at = bytesField(bytes, fieldNumber);
    return at == null ? "" : new String(bytes, at[0], at[1], StandardCharsets.UTF_8);
  }
}
