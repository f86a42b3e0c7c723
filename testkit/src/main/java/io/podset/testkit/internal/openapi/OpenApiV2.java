package io.podset.testkit.internal.openapi;

import io.podset.testkit.internal.resource.ContentHashes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * The OpenAPI v2 document ({@code /openapi/v2}) of the built-in kinds, as kube-apiserver 1.34
 * serves it before any CRD exists, in JSON and in the protobuf form kubectl 1.27 and 1.28 read. It
 * is the real server's document as is: not trimmed to what the fake serves and without custom
 * resources (the fake has no encoder of that protobuf form). Read once per JVM, when first asked
 * for.
 */
public final class OpenApiV2 {

  private OpenApiV2() {}

  public static byte[] json() {
    return Holder.JSON.clone();
  }

  public static byte[] protobuf() {
    return Holder.PROTOBUF.clone();
  }

  /** The ETag value: the SHA-512 of the JSON document. */
  public static String hash() {
    return Holder.HASH;
  }

  private static final class Holder {
    static final byte[] JSON = read("kube-openapi-v2.json.gz");
    static final byte[] PROTOBUF = read("kube-openapi-v2.pb.gz");
    static final String HASH = ContentHashes.sha512(JSON);

    private static byte[] read(String resource) {
      try (InputStream in = OpenApiV2.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("the OpenAPI resource " + resource + " is missing");
        }
        try (GZIPInputStream gz = new GZIPInputStream(in)) {
          return gz.readAllBytes();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the OpenAPI resource " + resource, e);
      }
    }
  }
}
