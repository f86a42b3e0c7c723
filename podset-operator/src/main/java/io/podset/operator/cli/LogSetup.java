package io.podset.operator.cli;

import java.util.Locale;

/**
 * Chooses the log format and level before the first logger exists: {@code logback.xml} reads these
 * system properties.
 */
final class LogSetup {

  static final String FORMAT_PROPERTY = "podset.log.format";
  static final String LEVEL_PROPERTY = "podset.log.level";

  private LogSetup() {}

  static void apply(OperatorCommand.LogFormat format, String level) {
    System.setProperty(FORMAT_PROPERTY, format == OperatorCommand.LogFormat.json ? "JSON" : "TEXT");
    System.setProperty(LEVEL_PROPERTY, level.toUpperCase(Locale.ROOT));
  }
}
