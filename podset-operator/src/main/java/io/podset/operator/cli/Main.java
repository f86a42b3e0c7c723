package io.podset.operator.cli;

import picocli.CommandLine;

/** Entry point of the operator process. */
public final class Main {

  private Main() {}

  /** Parses the command line, runs the operator and exits with its status. */
  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /**
   * Runs the command in this JVM and returns the exit status (0 ok, 1 failure, 2 usage error); for
   * launchers that run the operator in-process, such as the playground. It returns once the
   * operator has stopped: on a failure, or when its JVM shutdown hook has closed the manager.
   */
  public static int execute(String... args) {
    CommandLine commandLine = new CommandLine(new OperatorCommand());
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    return commandLine.execute(args);
  }
}
