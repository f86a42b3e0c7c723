package io.podset.testkit.internal.resource;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The hashes kube-apiserver puts in ETags and in the OpenAPI index: the SHA-512 of the bytes
 * served, in upper-case hex.
 */
public final class ContentHashes {

  private ContentHashes() {}

  public static String sha512(byte[] content) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-512").digest(content);
      return HexFormat.of().withUpperCase().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is required of every Java platform", e);
    }
  }
}
