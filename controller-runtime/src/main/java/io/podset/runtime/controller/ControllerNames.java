package io.podset.runtime.controller;

import java.util.HashSet;
import java.util.Set;

/** Controller names in use for one informer factory: names tag metrics, so they must be unique. */
final class ControllerNames {

  private final Set<String> names = new HashSet<>();

  synchronized void claim(String name) {
    if (!names.add(name)) {
      throw new IllegalStateException(
          "a controller named '" + name + "' already exists for this informer factory");
    }
  }

  synchronized void release(String name) {
    names.remove(name);
  }
}
