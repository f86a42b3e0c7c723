package io.podset.testkit.internal.auth;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Kubernetes' RBAC escalation check ({@code validation.ConfirmNoEscalation}): a user may write a
 * role, or bind one, only with rules it holds itself. Each rule is broken down into one verb on one
 * resource of one group (and one name), or one verb on one URL; each piece must be covered by a
 * rule of the user. The refusal lists the uncovered pieces, the simple ones merged again by
 * resource, as kube-apiserver words them.
 */
final class Escalation {

  private Escalation() {}

  /** The pieces of {@code wanted} that {@code held} does not cover, compacted; empty if none. */
  static List<String> missing(List<PolicyRule> held, List<PolicyRule> wanted) {
    List<PolicyRule> uncovered = new ArrayList<>();
    for (PolicyRule rule : wanted) {
      for (PolicyRule piece : breakdown(rule)) {
        if (held.stream().noneMatch(owner -> covers(owner, piece))) {
          uncovered.add(piece);
        }
      }
    }
    TreeSet<String> descriptions = new TreeSet<>();
    for (PolicyRule rule : compact(uncovered)) {
      descriptions.add(describe(rule));
    }
    return List.copyOf(descriptions);
  }

  private static List<PolicyRule> breakdown(PolicyRule rule) {
    List<PolicyRule> pieces = new ArrayList<>();
    for (String group : list(rule.getApiGroups())) {
      for (String resource : list(rule.getResources())) {
        for (String verb : list(rule.getVerbs())) {
          if (list(rule.getResourceNames()).isEmpty()) {
            pieces.add(rule(List.of(group), List.of(resource), List.of(), List.of(), verb));
          } else {
            for (String name : rule.getResourceNames()) {
              pieces.add(rule(List.of(group), List.of(resource), List.of(name), List.of(), verb));
            }
          }
        }
      }
    }
    for (String url : list(rule.getNonResourceURLs())) {
      for (String verb : list(rule.getVerbs())) {
        pieces.add(rule(List.of(), List.of(), List.of(), List.of(url), verb));
      }
    }
    return pieces;
  }

  private static PolicyRule rule(
      List<String> groups,
      List<String> resources,
      List<String> names,
      List<String> urls,
      String verb) {
    PolicyRule rule = new PolicyRule();
    rule.setApiGroups(new ArrayList<>(groups));
    rule.setResources(new ArrayList<>(resources));
    rule.setResourceNames(new ArrayList<>(names));
    rule.setNonResourceURLs(new ArrayList<>(urls));
    rule.setVerbs(new ArrayList<>(List.of(verb)));
    return rule;
  }

  private static boolean covers(PolicyRule owner, PolicyRule piece) {
    boolean verbs = hasAll(list(owner.getVerbs()), list(piece.getVerbs()));
    boolean groups = hasAll(list(owner.getApiGroups()), list(piece.getApiGroups()));
    boolean resources = resourcesCover(list(owner.getResources()), list(piece.getResources()));
    boolean urls = urlsCover(list(owner.getNonResourceURLs()), list(piece.getNonResourceURLs()));
    List<String> ownerNames = list(owner.getResourceNames());
    List<String> pieceNames = list(piece.getResourceNames());
    boolean names =
        pieceNames.isEmpty()
            ? ownerNames.isEmpty()
            : ownerNames.isEmpty() || ownerNames.containsAll(pieceNames);
    return verbs && groups && resources && names && urls;
  }

  /** {@code owner} has {@code *} or every value of {@code wanted}. */
  private static boolean hasAll(List<String> owner, List<String> wanted) {
    return owner.contains("*") || owner.containsAll(wanted);
  }

  private static boolean resourcesCover(List<String> owner, List<String> wanted) {
    if (hasAll(owner, wanted)) {
      return true;
    }
    for (String resource : wanted) {
      int slash = resource.indexOf('/');
      if (slash < 0 || !owner.contains("*" + resource.substring(slash))) {
        return false;
      }
    }
    return true;
  }

  private static boolean urlsCover(List<String> owner, List<String> wanted) {
    for (String url : wanted) {
      boolean covered = false;
      for (String path : owner) {
        if (path.equals(url)
            || (path.endsWith("*") && url.startsWith(path.replaceFirst("\\*+$", "")))) {
          covered = true;
          break;
        }
      }
      if (!covered) {
        return false;
      }
    }
    return true;
  }

  /**
   * Kubernetes' {@code CompactRules}: pieces of one group, one resource and at most one name are
   * merged into one rule with all their verbs; others stay as they are.
   */
  private static List<PolicyRule> compact(List<PolicyRule> rules) {
    List<PolicyRule> compacted = new ArrayList<>();
    Map<List<String>, PolicyRule> simple = new LinkedHashMap<>();
    for (PolicyRule rule : rules) {
      List<String> names = list(rule.getResourceNames());
      boolean isSimple =
          list(rule.getApiGroups()).size() == 1
              && list(rule.getResources()).size() == 1
              && names.size() <= 1
              && list(rule.getNonResourceURLs()).isEmpty()
              && !list(rule.getVerbs()).isEmpty();
      if (!isSimple) {
        compacted.add(rule);
        continue;
      }
      List<String> key =
          List.of(
              rule.getApiGroups().get(0),
              rule.getResources().get(0),
              names.isEmpty() ? "" : "=" + names.get(0));
      PolicyRule existing = simple.get(key);
      if (existing == null) {
        simple.put(key, rule);
      } else {
        existing.getVerbs().addAll(rule.getVerbs());
      }
    }
    compacted.addAll(simple.values());
    return compacted;
  }

  /**
   * Kubernetes' {@code CompactString}: {@code {APIGroups:[""], Resources:["pods"], Verbs:["get"]}}.
   */
  private static String describe(PolicyRule rule) {
    List<String> parts = new ArrayList<>();
    add(parts, "APIGroups", rule.getApiGroups());
    add(parts, "Resources", rule.getResources());
    add(parts, "NonResourceURLs", rule.getNonResourceURLs());
    add(parts, "ResourceNames", rule.getResourceNames());
    add(parts, "Verbs", rule.getVerbs());
    return "{" + String.join(", ", parts) + "}";
  }

  private static void add(List<String> parts, String field, List<String> values) {
    if (values != null && !values.isEmpty()) {
      parts.add(field + ":" + quoted(values));
    }
  }

  /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
  static String quoted(List<String> values) {
    List<String> quoted = new ArrayList<>();
    values.forEach(v -> quoted.add(RbacAuthorizer.quote(v)));
    return "[" + String.join(" ", quoted) + "]";
  }

  private static List<String> list(List<String> values) {
    return values == null ? List.of() : values;
  }
}
