package io.podset.testkit.internal.admission;

import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.TypeRules;
import io.podset.testkit.internal.tables.BuiltinTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The built-in resources the fake serves, with their short names, scopes and subresources. */
public final class BuiltinResources {

  private BuiltinResources() {}

  private static final ResourceType.PrinterColumn AGE =
      new ResourceType.PrinterColumn(
          "Age", "date", "", "Creation time", ".metadata.creationTimestamp", 0);

  private static final ResourceType.ScaleSpec REPLICAS_SCALE =
      new ResourceType.ScaleSpec(".spec.replicas", ".status.replicas", ".spec.selector");

  /**
   * The built-in resources; Services take their cluster IPs and node ports from {@code addresses}.
   * Pods, deployments, services and nodes print their tables with {@link BuiltinTables}.
   */
  public static List<ResourceType> all(ServiceAddresses addresses) {
    List<ResourceType> types = new ArrayList<>();
    // Core group.
    types.add(
        type("", "namespaces", "Namespace", false, List.of("ns"), List.of(), true)
            .status()
            .fields(Set.of("status.phase"))
            .columns(col("Status", ".status.phase"), AGE)
            .rules(NamespaceRules.INSTANCE)
            .build());
    types.add(
        type("", "pods", "Pod", true, List.of("po"), List.of("all"), true)
            .status()
            .fields(
                Set.of(
                    "spec.nodeName",
                    "spec.restartPolicy",
                    "spec.schedulerName",
                    "spec.serviceAccountName",
                    "spec.hostNetwork",
                    "status.phase",
                    "status.podIP",
                    "status.nominatedNodeName"))
            .rules(PodRules.INSTANCE)
            .build());
    types.add(type("", "configmaps", "ConfigMap", true, List.of("cm"), List.of(), false).build());
    types.add(
        type("", "secrets", "Secret", true, List.of(), List.of(), false)
            .fields(Set.of("type"))
            .columns(col("Type", ".type"), AGE)
            .rules(SecretRules.INSTANCE)
            .build());
    types.add(
        type("", "services", "Service", true, List.of("svc"), List.of("all"), false)
            .status()
            .rules(new ServiceRules(addresses))
            .build());
    types.add(
        type("", "serviceaccounts", "ServiceAccount", true, List.of("sa"), List.of(), false)
            .build());
    types.add(
        type("", "events", "Event", true, List.of("ev"), List.of(), false)
            .fields(
                Set.of(
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
                    "type"))
            .columns(
                col("Type", ".type"),
                col("Reason", ".reason"),
                col("Object", ".involvedObject.name"),
                col("Message", ".message"))
            .build());
    types.add(
        type("", "nodes", "Node", false, List.of("no"), List.of(), false)
            .status()
            .fields(Set.of("spec.unschedulable"))
            .build());
    types.add(
        type(
                "",
                "persistentvolumeclaims",
                "PersistentVolumeClaim",
                true,
                List.of("pvc"),
                none(),
                false)
            .status()
            .columns(col("Status", ".status.phase"), col("Volume", ".spec.volumeName"), AGE)
            .build());
    types.add(
        type("", "persistentvolumes", "PersistentVolume", false, List.of("pv"), none(), false)
            .status()
            .columns(col("Status", ".status.phase"), AGE)
            .build());
    types.add(type("", "endpoints", "Endpoints", true, List.of("ep"), none(), false).build());
    types.add(
        type("", "resourcequotas", "ResourceQuota", true, List.of("quota"), none(), false)
            .status()
            .build());
    types.add(
        type("", "limitranges", "LimitRange", true, List.of("limits"), none(), false).build());
    types.add(
        type("", "podtemplates", "PodTemplate", true, none(), none(), true)
            .rules(WorkloadRules.POD_TEMPLATE)
            .build());
    types.add(
        type(
                "",
                "replicationcontrollers",
                "ReplicationController",
                true,
                List.of("rc"),
                List.of("all"),
                true)
            .status()
            .scale(REPLICAS_SCALE)
            .fields(Set.of("status.replicas"))
            .columns(
                col("Desired", ".spec.replicas"),
                col("Current", ".status.replicas"),
                col("Ready", ".status.readyReplicas"),
                AGE)
            .rules(WorkloadRules.REPLICATION_CONTROLLER)
            .build());
    // apps/v1.
    for (Object[] workload :
        new Object[][] {
          {"deployments", "Deployment", "deploy", WorkloadRules.DEPLOYMENT},
          {"replicasets", "ReplicaSet", "rs", WorkloadRules.REPLICA_SET},
          {"statefulsets", "StatefulSet", "sts", WorkloadRules.STATEFUL_SET}
        }) {
      types.add(
          type(
                  "apps",
                  (String) workload[0],
                  (String) workload[1],
                  true,
                  List.of((String) workload[2]),
                  List.of("all"),
                  true)
              .status()
              .scale(REPLICAS_SCALE)
              .columns(
                  col("Desired", ".spec.replicas"),
                  col("Ready", ".status.readyReplicas"),
                  col("Available", ".status.availableReplicas"),
                  AGE)
              .rules((TypeRules) workload[3])
              .build());
    }
    types.add(
        type("apps", "daemonsets", "DaemonSet", true, List.of("ds"), List.of("all"), true)
            .status()
            .rules(WorkloadRules.DAEMON_SET)
            .build());
    types.add(
        type("apps", "controllerrevisions", "ControllerRevision", true, none(), none(), false)
            .build());
    // batch/v1 (defaulted); policy/v1, autoscaling/v2: stored as sent (no controllers).
    types.add(
        type("batch", "jobs", "Job", true, none(), List.of("all"), true)
            .status()
            .fields(Set.of("status.successful"))
            .columns(col("Succeeded", ".status.succeeded"), AGE)
            .rules(JobRules.JOB)
            .build());
    types.add(
        type("batch", "cronjobs", "CronJob", true, List.of("cj"), List.of("all"), true)
            .status()
            .columns(col("Schedule", ".spec.schedule"), col("Suspend", ".spec.suspend"), AGE)
            .rules(JobRules.CRON_JOB)
            .build());
    types.add(
        type(
                "policy",
                "poddisruptionbudgets",
                "PodDisruptionBudget",
                true,
                List.of("pdb"),
                none(),
                true)
            .status()
            .columns(
                col("Min Available", ".spec.minAvailable"),
                col("Max Unavailable", ".spec.maxUnavailable"),
                AGE)
            .build());
    types.add(
        type(
                "autoscaling",
                "horizontalpodautoscalers",
                "HorizontalPodAutoscaler",
                true,
                List.of("hpa"),
                List.of("all"),
                false)
            .version("v2")
            .status()
            .columns(
                col("Reference", ".spec.scaleTargetRef.name"),
                col("MinPods", ".spec.minReplicas"),
                col("MaxPods", ".spec.maxReplicas"),
                AGE)
            .build());
    types.add(
        type("coordination.k8s.io", "leases", "Lease", true, List.of(), List.of(), false)
            .columns(col("Holder", ".spec.holderIdentity"), AGE)
            .build());
    types.add(
        type("events.k8s.io", "events", "Event", true, List.of("ev"), List.of(), false)
            .fields(
                Set.of(
                    "regarding.kind",
                    "regarding.namespace",
                    "regarding.name",
                    "regarding.uid",
                    "reason",
                    "reportingController",
                    "type"))
            .rules(EventRules.INSTANCE)
            .build());
    String networking = "networking.k8s.io";
    types.add(
        type(networking, "ingresses", "Ingress", true, List.of("ing"), none(), true)
            .status()
            .columns(col("Class", ".spec.ingressClassName"), AGE)
            .build());
    types.add(
        type(networking, "ingressclasses", "IngressClass", false, none(), none(), true)
            .columns(col("Controller", ".spec.controller"), AGE)
            .build());
    types.add(
        type(networking, "networkpolicies", "NetworkPolicy", true, List.of("netpol"), none(), true)
            .build());
    types.add(
        type("discovery.k8s.io", "endpointslices", "EndpointSlice", true, none(), none(), true)
            .columns(col("AddressType", ".addressType"), AGE)
            .build());
    types.add(
        type(
                "scheduling.k8s.io",
                "priorityclasses",
                "PriorityClass",
                false,
                List.of("pc"),
                none(),
                true)
            .columns(col("Value", ".value"), col("Global-Default", ".globalDefault"), AGE)
            .build());
    types.add(
        type(
                "storage.k8s.io",
                "storageclasses",
                "StorageClass",
                false,
                List.of("sc"),
                none(),
                false)
            .columns(col("Provisioner", ".provisioner"), AGE)
            .build());
    String admission = "admissionregistration.k8s.io";
    types.add(
        type(
                admission,
                "validatingwebhookconfigurations",
                "ValidatingWebhookConfiguration",
                false,
                none(),
                List.of("api-extensions"),
                true)
            .build());
    types.add(
        type(
                admission,
                "mutatingwebhookconfigurations",
                "MutatingWebhookConfiguration",
                false,
                none(),
                List.of("api-extensions"),
                true)
            .build());
    String rbac = "rbac.authorization.k8s.io";
    types.add(rbacType(rbac, "roles", "Role", true));
    types.add(rbacType(rbac, "rolebindings", "RoleBinding", true));
    types.add(rbacType(rbac, "clusterroles", "ClusterRole", false));
    types.add(rbacType(rbac, "clusterrolebindings", "ClusterRoleBinding", false));
    types.add(
        type(
                "apiextensions.k8s.io",
                "customresourcedefinitions",
                "CustomResourceDefinition",
                false,
                List.of("crd", "crds"),
                List.of(),
                false)
            .status()
            .columns(col("Created At", ".metadata.creationTimestamp"))
            .rules(CrdRules.INSTANCE)
            .build());
    return types;
  }

  private static ResourceType rbacType(String group, String plural, String kind, boolean ns) {
    return type(group, plural, kind, ns, List.of(), List.of(), false)
        .rules(TypeRules.pathSegmentNamed())
        .build();
  }

  private static List<String> none() {
    return List.of();
  }

  private static ResourceType.PrinterColumn col(String name, String path) {
    return new ResourceType.PrinterColumn(name, "string", "", name, path, 0);
  }

  private static Spec type(
      String group,
      String plural,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories,
      boolean generation) {
    return new Spec(group, plural, kind, namespaced, shortNames, categories, generation);
  }

  /** A small builder for the table above. */
  private static final class Spec {
    private final String group;
    private final String plural;
    private final String kind;
    private final boolean namespaced;
    private final List<String> shortNames;
    private final List<String> categories;
    private final boolean generation;
    private String version = "v1";
    private boolean status;
    private ResourceType.ScaleSpec scale;
    private Set<String> fields = Set.of();
    private List<ResourceType.PrinterColumn> columns = List.of(AGE);
    private TypeRules rules = TypeRules.none();

    Spec(
        String group,
        String plural,
        String kind,
        boolean namespaced,
        List<String> shortNames,
        List<String> categories,
        boolean generation) {
      this.group = group;
      this.plural = plural;
      this.kind = kind;
      this.namespaced = namespaced;
      this.shortNames = shortNames;
      this.categories = categories;
      this.generation = generation;
    }

    Spec version(String servedVersion) {
      version = servedVersion;
      return this;
    }

    Spec status() {
      status = true;
      return this;
    }

    Spec scale(ResourceType.ScaleSpec spec) {
      scale = spec;
      return this;
    }

    Spec fields(Set<String> supported) {
      fields = supported;
      return this;
    }

    Spec columns(ResourceType.PrinterColumn... printerColumns) {
      columns = List.of(printerColumns);
      return this;
    }

    Spec rules(TypeRules typeRules) {
      rules = typeRules;
      return this;
    }

    ResourceType build() {
      return new ResourceType(
          group,
          version,
          plural,
          kind.toLowerCase(java.util.Locale.ROOT),
          kind,
          namespaced,
          shortNames,
          categories,
          status,
          scale,
          generation,
          fields,
          columns,
          rules,
          false);
    }
  }
}
