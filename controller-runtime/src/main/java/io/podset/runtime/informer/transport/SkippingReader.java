package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.core.filter.TokenFilter.Inclusion;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decodes JSON with the client's own object mapper through Jackson's {@link
 * FilteringParserDelegate}: the fields a {@link TokenFilter} drops are skipped by the parser (their
 * strings never decoded, their objects never built), the rest decoded exactly as {@link
 * KubernetesSerialization#unmarshal} would. Used for informers whose transform keeps few fields:
 * most of a pod's JSON is then never turned into objects. Thread-safe.
 */
final class SkippingReader {

  private final ObjectMapper mapper;
  private final ObjectReader reader;
  private final TokenFilter filter;

  private SkippingReader(ObjectMapper mapper, Type type, TokenFilter filter) {
    this.mapper = mapper;
    this.reader = mapper.readerFor(mapper.constructType(type));
    this.filter = filter;
  }

  /**
   * A reader of {@code type} (a watch line or a list of the objects) through {@code filter}, or
   * null when the serialization's mapper cannot be reached (then decode unfiltered).
   */
  static @Nullable SkippingReader of(
      KubernetesSerialization serialization, Type type, TokenFilter filter) {
    ObjectMapper mapper = mapperOf(serialization);
    return mapper == null ? null : new SkippingReader(mapper, type, filter);
  }

  /** A filter of one object that drops its {@code metadata.managedFields}, keeping all else. */
  static final TokenFilter WITHOUT_MANAGED_FIELDS =
      new KeepAllBut("metadata", new KeepAllBut("managedFields", null));

  /**
   * A filter of a watch line ({@code {"type":..,"object":{..}}}) applying {@code object} to its
   * object.
   */
  static TokenFilter watchLine(TokenFilter object) {
    Objects.requireNonNull(object, "object");
    return new KeepAllBut("object", object);
  }

  /**
   * A filter of a list ({@code {"metadata":..,"items":[..]}}) applying {@code item} to its items.
   */
  static TokenFilter list(TokenFilter item) {
    Objects.requireNonNull(item, "item");
    return new KeepAllBut("items", new Elements(item));
  }

  <V> V read(byte[] bytes, int offset, int length) throws IOException {
    try (JsonParser parser = filtered(mapper.createParser(bytes, offset, length))) {
      return reader.readValue(parser);
    }
  }

  /** Reads one value from {@code in}, then closes it. */
  <V> V read(InputStream in) throws IOException {
    try (in;
        JsonParser parser = filtered(mapper.createParser(in))) {
      return reader.readValue(parser);
    }
  }

  private JsonParser filtered(JsonParser parser) {
    return new FilteringParserDelegate(parser, filter, Inclusion.INCLUDE_ALL_AND_PATH, true);
  }

  /**
   * The client's object mapper (fabric8 keeps it package-private): the codec of a value it decoded
   * into a Jackson buffer. Null if that is no object mapper.
   */
  static @Nullable ObjectMapper mapperOf(KubernetesSerialization serialization) {
    try {
      TokenBuffer probe = serialization.unmarshal("{}", TokenBuffer.class);
      ObjectCodec codec = probe == null ? null : probe.getCodec();
      return codec instanceof ObjectMapper mapper ? mapper : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Everything, except one field's value, which goes through {@code inner} (null: dropped). */
  private static final class KeepAllBut extends TokenFilter {
    private final String field;
    private final @Nullable TokenFilter inner;

    KeepAllBut(String field, @Nullable TokenFilter inner) {
      this.field = field;
      this.inner = inner;
    }

    @Override
    public @Nullable TokenFilter includeProperty(String name) {
      return field.equals(name) ? inner : TokenFilter.INCLUDE_ALL;
    }

    @Override
    public boolean includeEmptyObject(boolean contentsFiltered) {
      return true;
    }
  }

  /** Each element of an array through {@code element}; the array kept even when empty. */
  private static final class Elements extends TokenFilter {
    private final TokenFilter element;

    Elements(TokenFilter element) {
      this.element = element;
    }

    @Override
    public TokenFilter includeElement(int index) {
      return element;
    }

    @Override
    public boolean includeEmptyArray(boolean contentsFiltered) {
      return true;
    }
  }
}
