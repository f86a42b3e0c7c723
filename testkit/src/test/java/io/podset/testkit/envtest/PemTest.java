package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemTest {

  @TempDir Path temp;

  @Test
  void writeRsaKeyPair_writesMatchingPkcs8AndPublicKeyPem() throws Exception {
    Path privateKey = temp.resolve("sa.key");
    Path publicKey = temp.resolve("sa.pub");

    Pem.writeRsaKeyPair(privateKey, publicKey);

    KeyFactory rsa = KeyFactory.getInstance("RSA");
    RSAPrivateCrtKey parsedPrivate =
        (RSAPrivateCrtKey)
            rsa.generatePrivate(new PKCS8EncodedKeySpec(der(privateKey, "PRIVATE KEY")));
    RSAPublicKey parsedPublic =
        (RSAPublicKey) rsa.generatePublic(new X509EncodedKeySpec(der(publicKey, "PUBLIC KEY")));
    assertThat(parsedPublic.getModulus()).isEqualTo(parsedPrivate.getModulus());
    assertThat(parsedPublic.getModulus().bitLength()).isEqualTo(2048);
  }

  @Test
  void encode_wrapsBase64At64Columns() {
    String pem = Pem.encode("TEST", new byte[100]);

    assertThat(pem).startsWith("-----BEGIN TEST-----\n").endsWith("\n-----END TEST-----\n");
    assertThat(pem.lines().skip(1).limit(1).findFirst().orElseThrow()).hasSize(64);
  }

  @Test
  void trustingOnceWritten_missingEmptyOrTruncated_isNull_thenTrusts() throws Exception {
    Path cert = temp.resolve("server.crt");
    String complete = Files.readString(Path.of("src/test/resources/envtest/test-cert.pem"));

    assertThat(Pem.trustingOnceWritten(List.of(cert))).isNull();
    Files.writeString(cert, "");
    assertThat(Pem.trustingOnceWritten(List.of(cert))).isNull();
    Files.writeString(cert, complete.substring(0, complete.length() / 2));
    assertThat(Pem.trustingOnceWritten(List.of(cert))).isNull();
    Files.writeString(cert, complete);
    assertThat(Pem.trustingOnceWritten(List.of(cert))).isNotNull();
  }

  private static byte[] der(Path file, String type) throws Exception {
    String text = Files.readString(file);
    assertThat(text).startsWith("-----BEGIN " + type + "-----\n");
    String body =
        text.replace("-----BEGIN " + type + "-----", "")
            .replace("-----END " + type + "-----", "")
            .replaceAll("\\s", "");
    return Base64.getDecoder().decode(body);
  }
}
