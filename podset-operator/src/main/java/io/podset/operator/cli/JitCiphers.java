package io.podset.operator.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/** Whether this JVM runs AES-GCM fast, from its compiler and intrinsic flags. */
final class JitCiphers {

  private JitCiphers() {}

  /**
   * Whether TLS should prefer ChaCha20-Poly1305 to AES-GCM: yes unless C2 can compile (tiered
   * compilation up to level 4, or C2 alone) and the AES and GHASH intrinsics are on (the CPU has
   * AES-NI and carry-less multiplication). Without them the JDK's AES-GCM is plain Java: 38 MB/s
   * under C1 against ChaCha20-Poly1305's 177 MB/s (with them, under C2: 1.5 GB/s against 243).
   * False (no change) where the HotSpot flags cannot be read.
   */
  static boolean preferChaCha() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return preferChaCha(
          Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue()),
          Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()),
          Boolean.parseBoolean(vm.getVMOption("UseAESIntrinsics").getValue())
              && Boolean.parseBoolean(vm.getVMOption("UseGHASHIntrinsics").getValue()));
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  static boolean preferChaCha(boolean tiered, int tieredStopAtLevel, boolean aesIntrinsics) {
    boolean c2 = !tiered || tieredStopAtLevel >= 4;
    return !(c2 && aesIntrinsics);
  }
}
