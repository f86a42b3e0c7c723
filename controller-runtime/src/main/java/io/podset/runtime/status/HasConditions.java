package io.podset.runtime.status;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A status with a {@code conditions} list: implement the getter and setter (Jackson serialises the
 * list as {@code status.conditions}) and get {@link #setCondition}.
 *
 * <pre>{@code
 * public class WebsiteStatus implements HasConditions {
 *   private List<Condition> conditions;
 *   public List<Condition> getConditions() { return conditions; }
 *   public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
 * }
 *
 * context.updateStatus(site -> site.getStatus().setCondition(
 *     context.condition("Ready", true, "Available", "serving")));
 * }</pre>
 */
public interface HasConditions {

  /** The conditions, or null for none. */
  @Nullable List<Condition> getConditions();

  /** Replaces the conditions. */
  void setConditions(List<Condition> conditions);

  /** Sets {@code condition} as {@link Conditions#set} does. Not a property of the status. */
  @JsonIgnore
  default void setCondition(Condition condition) {
    setConditions(Conditions.set(getConditions(), condition));
  }
}
