package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.List;

/**
 * Jobs and CronJobs as Kubernetes 1.34 defaults them (batch/v1 {@code SetDefaults_Job} and {@code
 * _CronJob}): completions, parallelism, backoff limit, completion mode, suspend, pod replacement
 * policy; a Job's generated selector on the {@code batch.kubernetes.io/controller-uid} label with
 * the job-name and controller-uid labels on its template (unless {@code manualSelector}), copied to
 * the Job's own labels when it has none; the pod template's {@link PodSpecDefaults}.
 */
public enum JobRules implements TypeRules {
  JOB {
    @Override
    public void applyDefaults(ObjectNode job) {
      jobSpec(Json.child(job, "spec"));
      Json.child(job, "status");
      JsonNode templateLabels = job.path("spec").path("template").path("metadata").path("labels");
      if (templateLabels.isObject()
          && !templateLabels.isEmpty()
          && job.path("metadata").path("labels").isEmpty()) {
        Json.metadata(job).set("labels", templateLabels.deepCopy());
      }
    }

    @Override
    public void prepareForCreate(ObjectNode job) {
      ObjectNode spec = Json.child(job, "spec");
      if (spec.path("manualSelector").asBoolean(false)) {
        return;
      }
      String uid = Json.text(job, "metadata.uid");
      String name = Json.name(job);
      ObjectNode labels =
          Json.child(Json.child(Json.child(spec, "template"), "metadata"), "labels");
      for (String label : List.of("job-name", "batch.kubernetes.io/job-name")) {
        if (!labels.has(label)) {
          labels.put(label, name);
        }
      }
      for (String label : List.of("controller-uid", CONTROLLER_UID)) {
        if (!labels.has(label)) {
          labels.put(label, uid);
        }
      }
      ObjectNode matchLabels = Json.child(Json.child(spec, "selector"), "matchLabels");
      if (!matchLabels.has(CONTROLLER_UID)) {
        matchLabels.put(CONTROLLER_UID, uid);
      }
      // The labels the selector put on the template become the Job's own (as a read from storage
      // defaults them again).
      if (job.path("metadata").path("labels").isEmpty()) {
        Json.metadata(job).set("labels", labels.deepCopy());
      }
    }
  },
  CRON_JOB {
    @Override
    public void applyDefaults(ObjectNode cronJob) {
      ObjectNode spec = Json.child(cronJob, "spec");
      PodSpecDefaults.putIfAbsent(spec, "concurrencyPolicy", "Allow");
      if (!spec.hasNonNull("suspend")) {
        spec.put("suspend", false);
      }
      WorkloadRules.putIfAbsent(spec, "successfulJobsHistoryLimit", 3);
      WorkloadRules.putIfAbsent(spec, "failedJobsHistoryLimit", 1);
      ObjectNode jobTemplate = Json.child(spec, "jobTemplate");
      Json.child(jobTemplate, "metadata");
      // A template's job spec gets the pod template defaults only: the Job defaults apply when
      // the CronJob controller creates the Job.
      WorkloadRules.template(Json.child(Json.child(jobTemplate, "spec"), "template"));
      Json.child(cronJob, "status");
    }
  };

  static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";

  private static void jobSpec(ObjectNode spec) {
    if (!spec.hasNonNull("completions") && !spec.hasNonNull("parallelism")) {
      spec.put("completions", 1);
    }
    WorkloadRules.putIfAbsent(spec, "parallelism", 1);
    WorkloadRules.putIfAbsent(
        spec, "backoffLimit", spec.hasNonNull("backoffLimitPerIndex") ? Integer.MAX_VALUE : 6);
    PodSpecDefaults.putIfAbsent(spec, "completionMode", "NonIndexed");
    if (!spec.hasNonNull("suspend")) {
      spec.put("suspend", false);
    }
    PodSpecDefaults.putIfAbsent(
        spec,
        "podReplacementPolicy",
        spec.hasNonNull("podFailurePolicy") ? "Failed" : "TerminatingOrFailed");
    if (!spec.hasNonNull("manualSelector")) {
      spec.put("manualSelector", false);
    }
    WorkloadRules.template(Json.child(spec, "template"));
  }
}
