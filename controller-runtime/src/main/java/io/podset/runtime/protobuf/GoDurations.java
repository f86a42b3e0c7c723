package io.podset.runtime.protobuf;

import java.math.BigDecimal;

/** Go's {@code time.Duration} text ({@code 1h2m3.5s}, {@code 150ms}), as Kubernetes JSON has it. */
public final class GoDurations {

  private static final long MICRO = 1_000L;
  private static final long MILLI = 1_000_000L;
  private static final long SECOND = 1_000_000_000L;

  private GoDurations() {}

  public static String format(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    // Long.MIN_VALUE has no positive twin; BigDecimal keeps it exact.
    BigDecimal n = BigDecimal.valueOf(nanos).abs();
    if (n.compareTo(BigDecimal.valueOf(SECOND)) < 0) {
      long u = n.longValueExact();
      if (u < MICRO) {
        return sign + u + "ns";
      }
      return u < MILLI ? sign + decimal(n, MICRO) + "\u00b5s" : sign + decimal(n, MILLI) + "ms";
    }
    BigDecimal[] minutesAndRest = n.divideAndRemainder(BigDecimal.valueOf(60 * SECOND));
    long minutes = minutesAndRest[0].longValueExact();
    String seconds = decimal(minutesAndRest[1], SECOND) + "s";
    if (minutes == 0) {
      return sign + seconds;
    }
    long hours = minutes / 60;
    return sign + (hours > 0 ? hours + "h" : "") + (minutes % 60) + "m" + seconds;
  }

  private static String decimal(BigDecimal value, long unit) {
    BigDecimal scaled = value.divide(BigDecimal.valueOf(unit)).stripTrailingZeros();
    return scaled.scale() < 0 ? scaled.setScale(0).toPlainString() : scaled.toPlainString();
  }
}
