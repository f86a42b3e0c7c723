package io.podset.testkit.internal.admission;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 1Gi}, {@code 2e3}): their value, and the
 * canonical form the API server writes back ({@code 0.5} becomes {@code 500m}, {@code 1024Mi}
 * becomes {@code 1Gi}, {@code 1000m} becomes {@code 1}), as {@code resource.Quantity.String()}
 * does: the suffix family of the input is kept (binary, decimal or exponent), precision finer than
 * a nano unit is rounded up, and a binary value that is small or fractional is written in decimal.
 */
final class Quantities {

  private static final Pattern QUANTITY =
      Pattern.compile(
          "^([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$");

  private static final Map<String, Integer> DECIMAL_EXPONENTS =
      Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigInteger KIBI = BigInteger.valueOf(1024);

  private Quantities() {}

  private enum Format {
    BINARY,
    DECIMAL,
    EXPONENT
  }

  private record Parsed(BigDecimal value, Format format) {}

  /** The value of a quantity, or null when {@code text} is not one. */
  static BigDecimal value(String text) {
    Parsed parsed = parse(text);
    return parsed == null ? null : parsed.value();
  }

  private static Parsed parse(String text) {
    if (text == null) {
      return null;
    }
    Matcher m = QUANTITY.matcher(text.trim());
    if (!m.matches()) {
      return null;
    }
    BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    if (suffix.startsWith("e") || suffix.startsWith("E")) {
      int exponent = Integer.parseInt(suffix.substring(1));
      return new Parsed(number.scaleByPowerOfTen(exponent), Format.EXPONENT);
    }
    if (suffix.endsWith("i")) {
      int power = java.util.Arrays.asList(BINARY_SUFFIXES).indexOf(suffix);
      return new Parsed(number.multiply(new BigDecimal(KIBI.pow(power))), Format.BINARY);
    }
    return new Parsed(number.scaleByPowerOfTen(DECIMAL_EXPONENTS.get(suffix)), Format.DECIMAL);
  }

  /**
   * The canonical form of a quantity in a resource list, rounded up to a milli unit as the API
   * server's defaulting does; a text that is no quantity is returned as it is (validation reports
   * it).
   */
  static String canonical(String text) {
    Parsed parsed = parse(text);
    if (parsed == null) {
      return text;
    }
    return format(parsed.value().setScale(3, RoundingMode.UP), parsed.format());
  }

  private static String format(BigDecimal value, Format format) {
    if (value.signum() == 0) {
      return "0";
    }
    if (format == Format.BINARY) {
      boolean small = value.abs().compareTo(new BigDecimal(KIBI)) < 0;
      if (!small && value.stripTrailingZeros().scale() <= 0) {
        BigInteger whole = value.toBigIntegerExact();
        int power = 0;
        while (power < BINARY_SUFFIXES.length - 1 && whole.mod(KIBI).signum() == 0) {
          whole = whole.divide(KIBI);
          power++;
        }
        return whole + BINARY_SUFFIXES[power];
      }
      format = Format.DECIMAL;
    }
    BigDecimal stripped = value.stripTrailingZeros();
    BigInteger mantissa = stripped.unscaledValue();
    int exponent = -stripped.scale();
    while (Math.floorMod(exponent, 3) != 0) {
      mantissa = mantissa.multiply(BigInteger.TEN);
      exponent--;
    }
    if (format == Format.EXPONENT) {
      return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
    }
    if (exponent > 18) {
      mantissa = mantissa.multiply(BigInteger.TEN.pow(exponent - 18));
      exponent = 18;
    }
    for (Map.Entry<String, Integer> e : DECIMAL_EXPONENTS.entrySet()) {
      if (e.getValue() == exponent) {
        return mantissa + e.getKey();
      }
    }
    throw new IllegalStateException("no suffix for exponent " + exponent);
  }
}
