package io.podset.testkit.internal.resource;

import java.util.regex.Pattern;

/** How object names are validated, with the messages Kubernetes uses. */
public enum NameRule {
  /** DNS-1123 subdomain: most kinds. */
  SUBDOMAIN {
    @Override
    public String check(String name) {
      if (name.length() > 253) {
        return "must be no more than 253 characters";
      }
      return SUBDOMAIN_PATTERN.matcher(name).matches()
          ? null
          : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
              + " or '.', and must start and end with an alphanumeric character (e.g."
              + " 'example.com', regex used for validation is '"
              + SUBDOMAIN_REGEX
              + "')";
    }
  },
  /** DNS-1123 label: namespaces, services. */
  LABEL {
    @Override
    public String check(String name) {
      if (name.length() > 63) {
        return "must be no more than 63 characters";
      }
      return LABEL_PATTERN.matcher(name).matches()
          ? null
          : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
              + " and must start and end with an alphanumeric character (e.g. 'my-name',  or"
              + " '123-abc', regex used for validation is '"
              + LABEL_REGEX
              + "')";
    }
  },
  /** Any name usable as a path segment: RBAC kinds. */
  PATH_SEGMENT {
    @Override
    public String check(String name) {
      if (name.equals(".") || name.equals("..")) {
        return "may not be '" + name + "'";
      }
      if (name.contains("/") || name.contains("%")) {
        return "may not contain '/' or '%'";
      }
      return null;
    }
  };

  private static final String LABEL_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN_REGEX =
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern LABEL_PATTERN = Pattern.compile(LABEL_REGEX);
  private static final Pattern SUBDOMAIN_PATTERN = Pattern.compile(SUBDOMAIN_REGEX);

  /** Null when valid, else the reason the name is rejected. */
  public abstract String check(String name);
}
