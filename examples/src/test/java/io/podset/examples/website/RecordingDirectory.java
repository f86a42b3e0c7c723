package io.podset.examples.website;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link SiteDirectory} in memory, for tests to look at. */
final class RecordingDirectory implements SiteDirectory {

  private final Map<String, String> entries = new ConcurrentHashMap<>();

  @Override
  public void publish(String host, String address) {
    entries.put(host, address);
  }

  @Override
  public void unpublish(String host) {
    entries.remove(host);
  }

  Map<String, String> entries() {
    return Map.copyOf(entries);
  }
}
