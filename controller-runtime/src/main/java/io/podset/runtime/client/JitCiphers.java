package io.podset.runtime.client;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/** Whether this JVM runs AES-GCM fast, from its compiler flags. */
final class JitCiphers {

  private JitCiphers() {}

  /**
   * Whether TLS should prefer ChaCha20-Poly1305 to AES-GCM: yes when C2 cannot compile (tiered
   * compilation stopped below level 4, as the PodSet operator and the archetype's operators are
   * deployed). The JDK's AES-GCM is fast only through C2's intrinsics (AES-NI, carry-less
   * multiplication); without them it is plain Java: 38 MB/s under C1 against ChaCha20-Poly1305's
   * 177 MB/s (with C2: 1.5 GB/s against 243). False (no change) where the HotSpot flags cannot be
   * read. (The intrinsics' own flags are diagnostic ones, which the management interface does not
   * show.)
   */
  static boolean preferChaCha() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return preferChaCha(
          Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue()),
          Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()));
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  static boolean preferChaCha(boolean tiered, int tieredStopAtLevel) {
    return tiered && tieredStopAtLevel < 4;
  }
}
