package io.podset.runtime.ownership;

/** An owner reference that Kubernetes would refuse or that would steal another's object. */
public final class OwnershipException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  OwnershipException(String message) {
    super(message);
  }
}
