package io.podset.testkit.internal.auth;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.List;

/**
 * Whether one RBAC rule allows a request, exactly as Kubernetes' {@code rbac.RuleAllows}: verbs and
 * API groups match by equality or {@code *}; resources by equality, {@code *} or {@code
 * *}/subresource; a rule with resourceNames only matches requests that carry one of those names (so
 * it never grants a list, watch or create of a collection); non-resource URLs by equality, {@code
 * *} or a prefix ending in {@code *}.
 */
final class PolicyRules {

  private PolicyRules() {}

  static boolean allows(Attributes request, PolicyRule rule) {
    if (!contains(rule.getVerbs(), request.verb())) {
      return false;
    }
    if (!request.resourceRequest()) {
      return urlMatches(rule.getNonResourceURLs(), request.path());
    }
    return contains(rule.getApiGroups(), request.apiGroup())
        && resourceMatches(rule.getResources(), request.combinedResource(), request.subresource())
        && nameMatches(rule.getResourceNames(), request.name());
  }

  private static boolean contains(List<String> values, String wanted) {
    if (values == null) {
      return false;
    }
    for (String value : values) {
      if (value.equals("*") || value.equals(wanted)) {
        return true;
      }
    }
    return false;
  }

  private static boolean resourceMatches(
      List<String> resources, String combined, String subresource) {
    if (resources == null) {
      return false;
    }
    for (String resource : resources) {
      if (resource.equals("*") || resource.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty()
          && resource.length() == subresource.length() + 2
          && resource.startsWith("*/")
          && resource.endsWith(subresource)) {
        return true;
      }
    }
    return false;
  }

  private static boolean nameMatches(List<String> names, String name) {
    return names == null || names.isEmpty() || names.contains(name);
  }

  private static boolean urlMatches(List<String> urls, String path) {
    if (urls == null) {
      return false;
    }
    for (String url : urls) {
      if (url.equals("*") || url.equals(path)) {
        return true;
      }
      if (url.endsWith("*") && path.startsWith(url.replaceFirst("\\*+$", ""))) {
        return true;
      }
    }
    return false;
  }
}
