package io.podset.testkit.envtest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;

/** PEM encoding of keys, and trust in PEM certificates: the JDK alone, no BouncyCastle. */
final class Pem {

  private Pem() {}

  /**
   * Generates a 2048-bit RSA key pair and writes the private key (PKCS#8, {@code PRIVATE KEY}) and
   * the public key ({@code PUBLIC KEY}), the forms kube-apiserver reads for service-account token
   * signing and verification.
   */
  static void writeRsaKeyPair(Path privateKeyFile, Path publicKeyFile) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      KeyPair pair = generator.generateKeyPair();
      Files.writeString(privateKeyFile, encode("PRIVATE KEY", pair.getPrivate().getEncoded()));
      Files.writeString(publicKeyFile, encode("PUBLIC KEY", pair.getPublic().getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("RSA key generation is not available in this JDK", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write key files in " + privateKeyFile.getParent(), e);
    }
  }

  /** A PEM block of {@code type} holding {@code der}, 64 characters a line. */
  static String encode(String type, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  /**
   * {@link #trusting} for files a server process is still writing: null while a file is missing,
   * empty or holds an incomplete certificate.
   */
  static @Nullable SSLContext trustingOnceWritten(List<Path> pemFiles) {
    for (Path file : pemFiles) {
      if (!Files.isRegularFile(file)) {
        return null;
      }
    }
    try {
      return trusting(pemFiles);
    } catch (IllegalArgumentException | UncheckedIOException incomplete) {
      return null;
    }
  }

  /**
   * A TLS context that trusts exactly the certificates in {@code pemFiles} (each may hold a chain).
   *
   * @throws IllegalArgumentException if a file holds no certificate
   */
  static SSLContext trusting(List<Path> pemFiles) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      int index = 0;
      for (Path file : pemFiles) {
        Collection<? extends Certificate> certs =
            factory.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file)));
        if (certs.isEmpty()) {
          throw new IllegalArgumentException("no certificate in " + file);
        }
        for (Certificate cert : certs) {
          store.setCertificateEntry("cert-" + index++, cert);
        }
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot trust certificates in " + pemFiles, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read certificates " + pemFiles, e);
    }
  }
}
