package io.podset.benchmarks.operator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the two TLS 1.3 AEAD ciphers cost this JVM, interleaved in one JVM: the thread CPU of
 * sealing and opening a 16-KB record (TLS's largest) with AES-256-GCM and ChaCha20-Poly1305, in
 * alternating rounds, the order flipped each round. Run it with the operator's JIT ({@code
 * -XX:TieredStopAtLevel=1}) and without: why controller-runtime's {@code
 * KubernetesClients.builder()} prefers ChaCha20 when C2 cannot compile.
 *
 * <p>Usage: {@code TlsCipherCost [rounds] [records per round]} (12, 300). Prints one line per round
 * and cipher, then the median of each over the second half of the rounds (the first half warms the
 * JIT up) and their ratio.
 */
public final class TlsCipherCost {

  private static final String AES = "AES/GCM/NoPadding";
  private static final String CHACHA = "ChaCha20-Poly1305";
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private TlsCipherCost() {}

  /** Runs the rounds; see the class documentation. */
  public static void main(String[] args) throws GeneralSecurityException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    byte[] record = new byte[16384];
    new SecureRandom().nextBytes(record);
    double[] aes = new double[rounds];
    double[] chacha = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      boolean aesFirst = r % 2 == 0;
      for (String cipher : aesFirst ? new String[] {AES, CHACHA} : new String[] {CHACHA, AES}) {
        double micros = microsPerRecord(cipher, records, record);
        (cipher.equals(AES) ? aes : chacha)[r] = micros;
        System.out.printf(
            "round %d %-18s %8.1f us per 16-KB record sealed and opened%n", r, cipher, micros);
      }
    }
    // The first half warms the JIT up (C2 compiles AES-GCM's intrinsics after a few rounds).
    double aesMedian = median(java.util.Arrays.copyOfRange(aes, rounds / 2, rounds));
    double chachaMedian = median(java.util.Arrays.copyOfRange(chacha, rounds / 2, rounds));
    System.out.printf(
        "median: %s %.1f us, %s %.1f us; AES-GCM / ChaCha20 = %.2f%n",
        AES, aesMedian, CHACHA, chachaMedian, aesMedian / chachaMedian);
  }

  private static double microsPerRecord(String algorithm, int records, byte[] record)
      throws GeneralSecurityException {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    SecretKeySpec spec = new SecretKeySpec(key, algorithm.equals(AES) ? "AES" : "ChaCha20");
    byte[] nonce = new byte[12];
    long start = THREADS.getCurrentThreadCpuTime();
    for (int i = 0; i < records; i++) {
      nonce[0] = (byte) i;
      nonce[1] = (byte) (i >> 8);
      nonce[2] = (byte) (i >> 16);
      AlgorithmParameterSpec parameters =
          algorithm.equals(AES) ? new GCMParameterSpec(128, nonce) : new IvParameterSpec(nonce);
      Cipher seal = Cipher.getInstance(algorithm);
      seal.init(Cipher.ENCRYPT_MODE, spec, parameters);
      byte[] sealed = seal.doFinal(record);
      Cipher open = Cipher.getInstance(algorithm);
      open.init(Cipher.DECRYPT_MODE, spec, parameters);
      open.doFinal(sealed);
    }
    return (THREADS.getCurrentThreadCpuTime() - start) / 1000.0 / records;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
