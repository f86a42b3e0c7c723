package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What the protobuf decoder needs of one message type, worked out once: its fields by number, each
 * with its JSON name and form, and, for each filter it is decoded through, the filter of every
 * field (the decoder then looks up neither descriptors nor names per field on the wire).
 * Thread-safe.
 */
final class MessagePlan {

  /** How a field's value is written as JSON. */
  enum Form {
    TEXT,
    BYTES,
    NUMBER,
    /** An object of the message's fields. */
    OBJECT,
    TIME,
    MICRO_TIME,
    DURATION,
    QUANTITY,
    INT_OR_STRING,
    /** JSON (or a nested protobuf object) in the message's field 1. */
    EMBEDDED_JSON
  }

  /**
   * One field.
   *
   * @param descriptor its descriptor
   * @param name its JSON name (the proto name, in the kinds of {@code k8s.io/api})
   * @param form how its values are written
   * @param inline whether it is an embedded Go struct, whose fields sit in the enclosing object
   * @param omitsZero whether JSON leaves its zero value out ({@link KubernetesProtobuf#omitsZero})
   */
  record Field(
      FieldDescriptor descriptor, String name, Form form, boolean inline, boolean omitsZero) {}

  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  // The decoder's filters are the informers' (fixed per informer); a filter that makes new
  // filters per call would grow the cache, so past this many the children are not kept.
  private static final int MAX_FILTERS = 256;
  // Bounded by the schema's message types.
  private static final ConcurrentHashMap<Descriptor, MessagePlan> PLANS = new ConcurrentHashMap<>();

  private final KubernetesProtobuf schema;
  // Immutable after construction: the fields by number, null where the message has none.
  private final @Nullable Field[] byNumber;
  // Immutable arrays: per filter, each field number's filter (null: dropped).
  private final ConcurrentHashMap<TokenFilter, @Nullable TokenFilter[]> children =
      new ConcurrentHashMap<>();

  private MessagePlan(Descriptor type, KubernetesProtobuf schema) {
    this.schema = schema;
    int max = 0;
    for (FieldDescriptor field : type.getFields()) {
      max = Math.max(max, field.getNumber());
    }
    byNumber = new Field[max + 1];
    for (FieldDescriptor field : type.getFields()) {
      byNumber[field.getNumber()] =
          new Field(
              field, field.getName(), form(field), schema.inline(field), schema.omitsZero(field));
    }
  }

  /** The plan of {@code type}, made on first use. */
  static MessagePlan of(Descriptor type, KubernetesProtobuf schema) {
    MessagePlan plan = PLANS.get(type);
    return plan != null ? plan : PLANS.computeIfAbsent(type, t -> new MessagePlan(t, schema));
  }

  /** The plan of the message type of {@code field}. */
  MessagePlan messagePlan(Field field) {
    return of(field.descriptor().getMessageType(), schema);
  }

  /** The field of {@code number}, or null if the message has none (a newer server's). */
  @Nullable Field field(int number) {
    return number < byNumber.length ? byNumber[number] : null;
  }

  /**
   * For each field number, the filter its values go through when this message is decoded through
   * {@code filter}: the field's own ({@link TokenFilter#includeProperty}), the enclosing one for an
   * embedded struct, null where {@code filter} drops the field.
   */
  @Nullable TokenFilter[] childFilters(TokenFilter filter) {
    @Nullable TokenFilter[] known = children.get(filter);
    if (known != null) {
      return known;
    }
    @Nullable TokenFilter[] made = new TokenFilter[byNumber.length];
    for (int i = 0; i < byNumber.length; i++) {
      Field field = byNumber[i];
      if (field != null) {
        made[i] = field.inline() ? filter : filter.includeProperty(field.name());
      }
    }
    if (children.size() < MAX_FILTERS) {
      children.putIfAbsent(filter, made);
    }
    return made;
  }

  private static Form form(FieldDescriptor field) {
    return switch (field.getJavaType()) {
      case STRING -> Form.TEXT;
      case BYTE_STRING -> Form.BYTES;
      case MESSAGE ->
          switch (field.getMessageType().getFullName()) {
            case META + "Time" -> Form.TIME;
            case META + "MicroTime" -> Form.MICRO_TIME;
            case META + "Duration" -> Form.DURATION;
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> Form.QUANTITY;
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> Form.INT_OR_STRING;
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", META + "FieldsV1" ->
                Form.EMBEDDED_JSON;
            default -> Form.OBJECT;
          };
      default -> Form.NUMBER;
    };
  }
}
