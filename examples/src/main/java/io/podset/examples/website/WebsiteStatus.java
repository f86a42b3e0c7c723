package io.podset.examples.website;

import io.fabric8.kubernetes.api.model.Condition;
import io.podset.runtime.status.HasConditions;
import java.util.List;

/** What the operator reports: a {@code Ready} condition. */
public class WebsiteStatus implements HasConditions {
  private List<Condition> conditions;

  @Override
  public List<Condition> getConditions() {
    return conditions;
  }

  @Override
  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }
}
