package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the frames of a protobuf watch body into events: each frame a {@code meta/v1.WatchEvent}
 * message (its {@code type}, and its object as a {@code RawExtension} holding a Kubernetes protobuf
 * object), as the API server writes them for {@code Accept: application/vnd.kubernetes.protobuf}.
 * Objects are decoded by {@link ProtobufObjects} through the informer's filter, bookmarks and ERROR
 * Statuses whole. Thread-safe.
 */
final class ProtobufWatchEvents<T extends HasMetadata> {

  /** The protobuf media type; a watch answered in it has {@code ;stream=watch} after it. */
  static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private final ProtobufObjects objects;
  private final ObjectReader objectReader;
  private final ObjectReader statusReader;
  private final TokenFilter filter;
  private final String apiVersion;

  private ProtobufWatchEvents(
      ProtobufObjects objects,
      ObjectMapper mapper,
      Class<T> type,
      TokenFilter filter,
      String apiVersion) {
    this.objects = objects;
    this.objectReader = mapper.readerFor(type);
    this.statusReader = mapper.readerFor(Status.class);
    this.filter = filter;
    this.apiVersion = apiVersion;
  }

  /**
   * The decoder of {@code type}'s watch events, or null when they are not asked for in protobuf: a
   * kind outside {@code k8s.io/api} (custom resources have no protobuf encoding), or a client whose
   * object mapper cannot be reached.
   *
   * @param skip what of each object may be skipped (as for {@link SkippingReader}), or null to
   *     decode objects whole
   */
  static <T extends HasMetadata> @Nullable ProtobufWatchEvents<T> of(
      KubernetesSerialization serialization, Class<T> type, @Nullable TokenFilter skip) {
    String apiVersion = HasMetadata.getApiVersion(type);
    ObjectMapper mapper = SkippingReader.mapperOf(serialization);
    if (mapper == null) {
      return null;
    }
    ProtobufObjects objects = new ProtobufObjects(mapper, KubernetesProtobuf.get());
    if (!objects.decodes(apiVersion, HasMetadata.getKind(type))) {
      return null;
    }
    return new ProtobufWatchEvents<>(
        objects, mapper, type, skip == null ? TokenFilter.INCLUDE_ALL : skip, apiVersion);
  }

  /**
   * Decodes one frame into an event, or throws what ends the watch: the Status of an ERROR event,
   * or a code-0 exception for a frame that is not a watch event.
   */
  WatchEvent<T> decode(byte[] bytes, int offset, int length, String url) {
    try {
      return event(bytes, offset, length, url);
    } catch (IOException | RuntimeException e) {
      if (e instanceof KubernetesClientException k) {
        throw k;
      }
      throw new KubernetesClientException(
          "watch of " + url + ": not a protobuf watch event (" + e.getMessage() + ")", e);
    }
  }

  private WatchEvent<T> event(byte[] bytes, int offset, int length, String url) throws IOException {
    String type = "";
    int objectStart = -1;
    int objectLength = 0;
    CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> type = in.readStringRequireUtf8();
        case 2 -> { // object: a RawExtension, whose field 1 holds the object's bytes
          int end = in.pushLimit(in.readRawVarint32());
          for (int t = in.readTag(); t != 0; t = in.readTag()) {
            if (WireFormat.getTagFieldNumber(t) == 1) {
              objectLength = in.readRawVarint32();
              objectStart = offset + in.getTotalBytesRead();
              in.skipRawBytes(objectLength);
            } else {
              in.skipField(t);
            }
          }
          in.popLimit(end);
        }
        default -> in.skipField(tag);
      }
    }
    if (objectStart < 0) {
      throw new IOException("an event of type \"" + type + "\" without an object");
    }
    if (type.equals("ERROR")) {
      Status status =
          objects.read(bytes, objectStart, objectLength, statusReader, TokenFilter.INCLUDE_ALL);
      int code = status.getCode() == null ? 0 : status.getCode();
      throw new KubernetesClientException(
          "watch of " + url + " ended by an ERROR event: " + status.getMessage(), code, status);
    }
    // The bookmark's annotations (the end of the initial events) may be what the filter skips.
    TokenFilter objectFilter = type.equals("BOOKMARK") ? TokenFilter.INCLUDE_ALL : filter;
    T object = objects.read(bytes, objectStart, objectLength, objectReader, objectFilter);
    if (object.getApiVersion() == null || object.getApiVersion().isEmpty()) {
      object.setApiVersion(apiVersion);
    }
    return switch (type) {
      case "ADDED" -> new WatchEvent.Added<>(object);
      case "MODIFIED" -> new WatchEvent.Modified<>(object);
      case "DELETED" -> new WatchEvent.Deleted<>(object);
      case "BOOKMARK" -> bookmark(object);
      default -> throw new IOException("an event of unknown type \"" + type + "\"");
    };
  }

  private WatchEvent<T> bookmark(T object) throws IOException {
    ObjectMeta meta = object.getMetadata();
    if (meta == null || meta.getResourceVersion() == null) {
      throw new IOException("a BOOKMARK without a resourceVersion");
    }
    return new WatchEvent.Bookmark<>(meta.getResourceVersion(), meta.getAnnotations());
  }

  static boolean isProtobuf(@Nullable String contentType) {
    return contentType != null && contentType.startsWith(MEDIA_TYPE);
  }
}
