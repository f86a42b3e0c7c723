package io.podset.operator.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest (set by the build). */
final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    String version = OperatorCommand.class.getPackage().getImplementationVersion();
    return new String[] {"podset-operator " + (version == null ? "(development build)" : version)};
  }
}
