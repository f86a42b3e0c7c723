package io.podset.archetype;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A bash command line for README lines as a user types them, where {@code mvn} is the system Maven
 * with the settings and repository of the invoker's builds (issue 19's consumer check): this
 * build's snapshots come from target/it-repo and never from ~/.m2, which is never written.
 */
final class UserShell {

  private UserShell() {}

  static List<String> command(String lines) {
    Path settings = Path.of("target", "user-shell-settings.xml").toAbsolutePath();
    try {
      String template = Files.readString(Path.of(System.getProperty("archetype.invoker.settings")));
      Files.writeString(
          settings,
          template.replace(
              "@localRepositoryUrl@",
              Path.of(System.getProperty("archetype.user.repo")).toUri().toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path repo = Path.of(System.getProperty("archetype.it.repo")).toAbsolutePath();
    String script =
        "set -euo pipefail\n"
            + "mvn() { command mvn -s '"
            + settings
            + "' -Dmaven.repo.local='"
            + repo
            + "' \"$@\"; }\n"
            + lines;
    return List.of("bash", "-c", script);
  }
}
