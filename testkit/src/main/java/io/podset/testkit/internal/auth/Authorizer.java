package io.podset.testkit.internal.auth;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.List;

/** Decides requests, and lists what a user may do in a namespace (SelfSubjectRulesReview). */
interface Authorizer {

  Decision authorize(Attributes request);

  /** The rules that apply to {@code user} in {@code namespace}, and the errors met finding them. */
  Rules rulesFor(Identity user, String namespace);

  /** Rules found for a user, in the order of the bindings that grant them. */
  record Rules(List<PolicyRule> rules, List<String> errors) {
    public Rules {
      rules = List.copyOf(rules);
      errors = List.copyOf(errors);
    }
  }

  /** Every request allowed (kube-apiserver's {@code AlwaysAllow} mode). */
  static Authorizer alwaysAllow() {
    return new Authorizer() {
      @Override
      public Decision authorize(Attributes request) {
        return Decision.allow("");
      }

      @Override
      public Rules rulesFor(Identity user, String namespace) {
        PolicyRule all = new PolicyRule();
        all.setVerbs(List.of("*"));
        all.setApiGroups(List.of("*"));
        all.setResources(List.of("*"));
        PolicyRule urls = new PolicyRule();
        urls.setVerbs(List.of("*"));
        urls.setNonResourceURLs(List.of("*"));
        return new Rules(List.of(all, urls), List.of());
      }
    };
  }
}
