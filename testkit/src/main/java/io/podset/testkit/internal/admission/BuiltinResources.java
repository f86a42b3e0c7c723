package io.podset.testkit.internal.admission;

import static io.podset.testkit.internal.admission.BuiltinType.AGE;
import static io.podset.testkit.internal.admission.BuiltinType.REPLICAS_SCALE;
import static io.podset.testkit.internal.admission.BuiltinType.cluster;
import static io.podset.testkit.internal.admission.BuiltinType.col;
import static io.podset.testkit.internal.admission.BuiltinType.namespaced;

import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.TypeRules;
import io.podset.testkit.internal.tables.BuiltinTables;
import java.util.List;

/**
 * The built-in resources the fake serves, with their short names, scopes and subresources: one row
 * a kind, in the order discovery lists them.
 */
public final class BuiltinResources {

  private static final String APPS = "apps";
  private static final String NETWORKING = "networking.k8s.io";
  private static final String ADMISSION = "admissionregistration.k8s.io";
  private static final String RBAC = "rbac.authorization.k8s.io";

  private BuiltinResources() {}

  /**
   * The built-in resources; Services take their cluster IPs and node ports from {@code addresses}.
   * Pods, deployments, services and nodes print their tables with {@link BuiltinTables}.
   */
  public static List<ResourceType> all(ServiceAddresses addresses) {
    return List.of(
        // Core group.
        cluster("", "namespaces", "Namespace")
            .shortNames("ns")
            .generation()
            .status()
            .fields("status.phase")
            .columns(col("Status", ".status.phase"), AGE)
            .rules(NamespaceRules.INSTANCE)
            .build(),
        namespaced("", "pods", "Pod")
            .shortNames("po")
            .inAll()
            .generation()
            .status()
            .fields(
                "spec.nodeName",
                "spec.restartPolicy",
                "spec.schedulerName",
                "spec.serviceAccountName",
                "spec.hostNetwork",
                "status.phase",
                "status.podIP",
                "status.nominatedNodeName")
            .rules(PodRules.INSTANCE)
            .build(),
        namespaced("", "configmaps", "ConfigMap").shortNames("cm").build(),
        namespaced("", "secrets", "Secret")
            .fields("type")
            .columns(col("Type", ".type"), AGE)
            .rules(SecretRules.INSTANCE)
            .build(),
        namespaced("", "services", "Service")
            .shortNames("svc")
            .inAll()
            .status()
            .rules(new ServiceRules(addresses))
            .build(),
        namespaced("", "serviceaccounts", "ServiceAccount").shortNames("sa").build(),
        namespaced("", "events", "Event")
            .shortNames("ev")
            .fields(
                "involvedObject.kind",
                "involvedObject.namespace",
                "involvedObject.name",
                "involvedObject.uid",
                "involvedObject.apiVersion",
                "involvedObject.resourceVersion",
                "involvedObject.fieldPath",
                "reason",
                "reportingComponent",
                "source",
                "type")
            .columns(
                col("Type", ".type"),
                col("Reason", ".reason"),
                col("Object", ".involvedObject.name"),
                col("Message", ".message"))
            .build(),
        cluster("", "nodes", "Node").shortNames("no").status().fields("spec.unschedulable").build(),
        namespaced("", "persistentvolumeclaims", "PersistentVolumeClaim")
            .shortNames("pvc")
            .status()
            .columns(col("Status", ".status.phase"), col("Volume", ".spec.volumeName"), AGE)
            .build(),
        cluster("", "persistentvolumes", "PersistentVolume")
            .shortNames("pv")
            .status()
            .columns(col("Status", ".status.phase"), AGE)
            .build(),
        namespaced("", "endpoints", "Endpoints").shortNames("ep").build(),
        namespaced("", "resourcequotas", "ResourceQuota").shortNames("quota").status().build(),
        namespaced("", "limitranges", "LimitRange").shortNames("limits").build(),
        namespaced("", "podtemplates", "PodTemplate")
            .generation()
            .rules(WorkloadRules.POD_TEMPLATE)
            .build(),
        replicated("", "replicationcontrollers", "ReplicationController", "rc")
            .fields("status.replicas")
            .columns(
                col("Desired", ".spec.replicas"),
                col("Current", ".status.replicas"),
                col("Ready", ".status.readyReplicas"),
                AGE)
            .rules(WorkloadRules.REPLICATION_CONTROLLER)
            .build(),
        // apps/v1.
        appsWorkload("deployments", "Deployment", "deploy", WorkloadRules.DEPLOYMENT),
        appsWorkload("replicasets", "ReplicaSet", "rs", WorkloadRules.REPLICA_SET),
        appsWorkload("statefulsets", "StatefulSet", "sts", WorkloadRules.STATEFUL_SET),
        namespaced(APPS, "daemonsets", "DaemonSet")
            .shortNames("ds")
            .inAll()
            .generation()
            .status()
            .rules(WorkloadRules.DAEMON_SET)
            .build(),
        namespaced(APPS, "controllerrevisions", "ControllerRevision").build(),
        // batch/v1 (defaulted); policy/v1, autoscaling/v2: stored as sent (no controllers).
        namespaced("batch", "jobs", "Job")
            .inAll()
            .generation()
            .status()
            .fields("status.successful")
            .columns(col("Succeeded", ".status.succeeded"), AGE)
            .rules(JobRules.JOB)
            .build(),
        namespaced("batch", "cronjobs", "CronJob")
            .shortNames("cj")
            .inAll()
            .generation()
            .status()
            .columns(col("Schedule", ".spec.schedule"), col("Suspend", ".spec.suspend"), AGE)
            .rules(JobRules.CRON_JOB)
            .build(),
        namespaced("policy", "poddisruptionbudgets", "PodDisruptionBudget")
            .shortNames("pdb")
            .generation()
            .status()
            .columns(
                col("Min Available", ".spec.minAvailable"),
                col("Max Unavailable", ".spec.maxUnavailable"),
                AGE)
            .build(),
        namespaced("autoscaling", "horizontalpodautoscalers", "HorizontalPodAutoscaler")
            .shortNames("hpa")
            .inAll()
            .version("v2")
            .status()
            .columns(
                col("Reference", ".spec.scaleTargetRef.name"),
                col("MinPods", ".spec.minReplicas"),
                col("MaxPods", ".spec.maxReplicas"),
                AGE)
            .build(),
        namespaced("coordination.k8s.io", "leases", "Lease")
            .columns(col("Holder", ".spec.holderIdentity"), AGE)
            .build(),
        namespaced("events.k8s.io", "events", "Event")
            .shortNames("ev")
            .fields(
                "regarding.kind",
                "regarding.namespace",
                "regarding.name",
                "regarding.uid",
                "reason",
                "reportingController",
                "type")
            .rules(EventRules.INSTANCE)
            .build(),
        namespaced(NETWORKING, "ingresses", "Ingress")
            .shortNames("ing")
            .generation()
            .status()
            .columns(col("Class", ".spec.ingressClassName"), AGE)
            .build(),
        cluster(NETWORKING, "ingressclasses", "IngressClass")
            .generation()
            .columns(col("Controller", ".spec.controller"), AGE)
            .build(),
        namespaced(NETWORKING, "networkpolicies", "NetworkPolicy")
            .shortNames("netpol")
            .generation()
            .build(),
        namespaced("discovery.k8s.io", "endpointslices", "EndpointSlice")
            .generation()
            .columns(col("AddressType", ".addressType"), AGE)
            .build(),
        cluster("scheduling.k8s.io", "priorityclasses", "PriorityClass")
            .shortNames("pc")
            .generation()
            .columns(col("Value", ".value"), col("Global-Default", ".globalDefault"), AGE)
            .build(),
        cluster("storage.k8s.io", "storageclasses", "StorageClass")
            .shortNames("sc")
            .columns(col("Provisioner", ".provisioner"), AGE)
            .build(),
        webhooks("validatingwebhookconfigurations", "ValidatingWebhookConfiguration"),
        webhooks("mutatingwebhookconfigurations", "MutatingWebhookConfiguration"),
        rbac(namespaced(RBAC, "roles", "Role")),
        rbac(namespaced(RBAC, "rolebindings", "RoleBinding")),
        rbac(cluster(RBAC, "clusterroles", "ClusterRole")),
        rbac(cluster(RBAC, "clusterrolebindings", "ClusterRoleBinding")),
        cluster("apiextensions.k8s.io", "customresourcedefinitions", "CustomResourceDefinition")
            .shortNames("crd", "crds")
            .categories("api-extensions")
            .status()
            .columns(col("Created At", ".metadata.creationTimestamp"))
            .rules(CrdRules.INSTANCE)
            .build());
  }

  /** A kind that keeps a number of pods: status and scale subresources, in {@code all}. */
  private static BuiltinType replicated(
      String group, String plural, String kind, String shortName) {
    return namespaced(group, plural, kind)
        .shortNames(shortName)
        .inAll()
        .generation()
        .status()
        .scale(REPLICAS_SCALE);
  }

  private static ResourceType appsWorkload(
      String plural, String kind, String shortName, TypeRules rules) {
    return replicated(APPS, plural, kind, shortName)
        .columns(
            col("Desired", ".spec.replicas"),
            col("Ready", ".status.readyReplicas"),
            col("Available", ".status.availableReplicas"),
            AGE)
        .rules(rules)
        .build();
  }

  private static ResourceType webhooks(String plural, String kind) {
    return cluster(ADMISSION, plural, kind).categories("api-extensions").generation().build();
  }

  /** RBAC objects: names are path segments, nothing else is checked. */
  private static ResourceType rbac(BuiltinType type) {
    return type.rules(TypeRules.pathSegmentNamed()).build();
  }
}
