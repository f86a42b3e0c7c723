package main

import (
	"context"
	"fmt"
	"strings"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"
	"k8s.io/utils/ptr"
)

func allChecks() []check {
	return append(append(coreChecks(), watchChecks()...), writeChecks()...)
}

func coreChecks() []check {
	return []check{
		{"discovery/groups-resources-restmapper", discoveryAndRESTMapper},
		{"discovery/aggregated-v2", aggregatedDiscovery},
		{"crud/json-configmap", crudJSON},
		{"crud/protobuf-pod", crudProtobuf},
		{"crud/protobuf-empty-optional-string", protobufEmptyString},
		{"crud/conflict-and-already-exists", conflicts},
		{"crud/generate-name-and-dry-run", generateNameAndDryRun},
		{"list/paging", paging},
		{"list/selectors", selectors},
		{"delete/collection-by-label", deleteCollection},
	}
}

func configMap(name string, labels map[string]string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Data: data}
}

func discoveryAndRESTMapper(ctx context.Context, s *suite) error {
	_, lists, err := s.discovery.ServerGroupsAndResources()
	if err != nil {
		return fmt.Errorf("ServerGroupsAndResources: %w", err)
	}
	found := map[string]bool{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			found[l.GroupVersion+"/"+r.Name] = true
		}
	}
	for _, want := range []string{"v1/pods", "v1/pods/status", "v1/configmaps", "apps/v1/deployments",
		"apps/v1/deployments/scale", "coordination.k8s.io/v1/leases", "events.k8s.io/v1/events",
		"apiextensions.k8s.io/v1/customresourcedefinitions"} {
		if !found[want] {
			return fmt.Errorf("discovery lacks %s", want)
		}
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(s.discovery))
	m, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
	if err != nil {
		return fmt.Errorf("RESTMapping apps/Deployment: %w", err)
	}
	kind, err := mapper.KindFor(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	if err != nil {
		return fmt.Errorf("KindFor pods: %w", err)
	}
	return first(
		expect("Deployment's resource", m.Resource.Resource, "deployments"),
		expect("Deployment's scope", m.Scope.Name(), "namespace"),
		expect("pods' kind", kind.Kind, "Pod"))
}

// aggregatedDiscovery checks that the server answers client-go's aggregated discovery request
// (apidiscovery.k8s.io/v2): only then does GroupsAndMaybeResources return the resources with the
// groups, from the two requests /api and /apis; subresources come back as "parent/sub" entries.
func aggregatedDiscovery(ctx context.Context, s *suite) error {
	ad, ok := s.discovery.(discovery.AggregatedDiscoveryInterface)
	if !ok {
		return fmt.Errorf("the discovery client has no aggregated discovery")
	}
	_, resources, failed, err := ad.GroupsAndMaybeResources()
	if err != nil {
		return fmt.Errorf("GroupsAndMaybeResources: %w", err)
	}
	if resources == nil {
		return fmt.Errorf("the server did not answer aggregated discovery (no resources with the groups)")
	}
	if len(failed) > 0 {
		return fmt.Errorf("failed group/versions: %v", failed)
	}
	find := func(gv schema.GroupVersion, name string) *metav1.APIResource {
		if list := resources[gv]; list != nil {
			for i := range list.APIResources {
				if list.APIResources[i].Name == name {
					return &list.APIResources[i]
				}
			}
		}
		return nil
	}
	apps := schema.GroupVersion{Group: "apps", Version: "v1"}
	deployments, scale := find(apps, "deployments"), find(apps, "deployments/scale")
	pods := find(schema.GroupVersion{Version: "v1"}, "pods")
	if deployments == nil || scale == nil || pods == nil {
		return fmt.Errorf("aggregated discovery lacks deployments, deployments/scale or pods")
	}
	return first(
		expect("deployments' kind", deployments.Kind, "Deployment"),
		expect("deployments' singular name", deployments.SingularName, "deployment"),
		expect("deployments namespaced", fmt.Sprint(deployments.Namespaced), "true"),
		expect("deployments' short names", strings.Join(deployments.ShortNames, ","), "deploy"),
		expect("deployments/scale's group", scale.Group, "autoscaling"),
		expect("deployments/scale's kind", scale.Kind, "Scale"),
		expect("pods' verbs", strings.Join(pods.Verbs, ","), "create,delete,deletecollection,get,list,patch,update,watch"))
}

func crudJSON(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	created, err := cms.Create(ctx, configMap("one", nil, map[string]string{"a": "1"}), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	got, err := cms.Get(ctx, "one", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	got.Data["a"] = "2"
	updated, err := cms.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	list, err := cms.List(ctx, metav1.ListOptions{FieldSelector: "metadata.name=one"})
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if err := cms.Delete(ctx, "one", metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	_, err = cms.Get(ctx, "one", metav1.GetOptions{})
	return first(
		expect("uid kept by update", updated.UID, created.UID),
		expect("data after update", updated.Data["a"], "2"),
		expect("resourceVersion changed by update", updated.ResourceVersion != created.ResourceVersion, true),
		expect("items listed", len(list.Items), 1),
		expect("get after delete is NotFound", apierrors.IsNotFound(err), true))
}

func crudProtobuf(ctx context.Context, s *suite) error {
	pods := s.protobuf.CoreV1().Pods(s.ns)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pb", Labels: map[string]string{"app": "pb"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "main", Image: "busybox:1.36", Command: []string{"sleep", "3600"},
				Ports: []corev1.ContainerPort{{ContainerPort: 8080}},
				Env:   []corev1.EnvVar{{Name: "EMPTY", Value: ""}},
			}},
			Volumes: []corev1.Volume{{Name: "scratch",
				VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	got, err := pods.Get(ctx, "pb", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	got.Labels["tier"] = "web"
	updated, err := pods.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	c := created.Spec.Containers[0]
	return first(
		expect("image", c.Image, "busybox:1.36"),
		expect("port protocol defaulted", c.Ports[0].Protocol, corev1.ProtocolTCP),
		expect("restartPolicy defaulted", created.Spec.RestartPolicy, corev1.RestartPolicyAlways),
		expect("volume kept as emptyDir", created.Spec.Volumes[0].EmptyDir != nil, true),
		expect("label after update", updated.Labels["tier"], "web"),
		expect("uid", updated.UID, created.UID))
}

// client-go's leader election writes holderIdentity "" on release: a *string set to "".
func protobufEmptyString(ctx context.Context, s *suite) error {
	leases := s.protobuf.CoordinationV1().Leases(s.ns)
	created, err := leases.Create(ctx, &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "lock"},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: ptr.To(""), LeaseDurationSeconds: ptr.To[int32](1)},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	got, err := s.json.CoordinationV1().Leases(s.ns).Get(ctx, "lock", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	return first(
		expect("holderIdentity present in the answer", created.Spec.HolderIdentity != nil, true),
		expect("holderIdentity stored", got.Spec.HolderIdentity != nil && *got.Spec.HolderIdentity == "", true))
}

func conflicts(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	created, err := cms.Create(ctx, configMap("c", nil, map[string]string{"v": "1"}), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	_, again := cms.Create(ctx, configMap("c", nil, nil), metav1.CreateOptions{})
	fresh := created.DeepCopy()
	fresh.Data["v"] = "2"
	if _, err := cms.Update(ctx, fresh, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	stale := created.DeepCopy()
	stale.Data["v"] = "3"
	_, conflict := cms.Update(ctx, stale, metav1.UpdateOptions{})
	return first(
		expect("second create is AlreadyExists", apierrors.IsAlreadyExists(again), true),
		expect("update with a stale resourceVersion is Conflict", apierrors.IsConflict(conflict), true),
		expect("conflict message names the object", conflict != nil && strings.Contains(conflict.Error(),
			`Operation cannot be fulfilled on configmaps "c": the object has been modified`), true))
}

func generateNameAndDryRun(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	generated, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "gen-"}},
		metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create with generateName: %w", err)
	}
	dry, err := cms.Create(ctx, configMap("dry", nil, nil), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		return fmt.Errorf("dry-run create: %w", err)
	}
	_, getErr := cms.Get(ctx, "dry", metav1.GetOptions{})
	return first(
		expect("generated name prefix", strings.HasPrefix(generated.Name, "gen-") && len(generated.Name) == 9, true),
		expect("dry-run answer has the name", dry.Name, "dry"),
		expect("dry-run create stored nothing", apierrors.IsNotFound(getErr), true))
}

func paging(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	for i := 0; i < 25; i++ {
		if _, err := cms.Create(ctx, configMap(fmt.Sprintf("page-%02d", i), map[string]string{"paged": "yes"}, nil),
			metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create %d: %w", i, err)
		}
	}
	seen, pages, cont := map[string]bool{}, 0, ""
	listRV := ""
	for {
		// No selector: the server then also says how many items remain.
		list, err := cms.List(ctx, metav1.ListOptions{Limit: 10, Continue: cont})
		if err != nil {
			return fmt.Errorf("page %d: %w", pages+1, err)
		}
		pages++
		if len(list.Items) > 10 {
			return fmt.Errorf("page %d has %d items, limit 10", pages, len(list.Items))
		}
		if pages == 1 {
			listRV = list.ResourceVersion
		} else if list.ResourceVersion != listRV {
			return fmt.Errorf("page %d at resourceVersion %s, the first at %s", pages, list.ResourceVersion, listRV)
		}
		for _, cm := range list.Items {
			if strings.HasPrefix(cm.Name, "page-") {
				seen[cm.Name] = true
			}
		}
		if list.Continue == "" {
			break
		}
		if list.RemainingItemCount == nil {
			return fmt.Errorf("page %d has a continue token but no remainingItemCount", pages)
		}
		cont = list.Continue
	}
	return first(expect("pages", pages, 3), expect("distinct items", len(seen), 25))
}

func selectors(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	for name, labels := range map[string]map[string]string{
		"a": {"tier": "web", "env": "prod"}, "b": {"tier": "db"}, "c": {"tier": "cache", "env": "dev"}} {
		if _, err := cms.Create(ctx, configMap(name, labels, nil), metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	names := func(opts metav1.ListOptions) (string, error) {
		list, err := cms.List(ctx, opts)
		if err != nil {
			return "", err
		}
		var out []string
		for _, cm := range list.Items {
			if cm.Name != "kube-root-ca.crt" {
				out = append(out, cm.Name)
			}
		}
		return strings.Join(out, ","), nil
	}
	var got [4]string
	var errs [4]error
	got[0], errs[0] = names(metav1.ListOptions{LabelSelector: "tier in (web,db)"})
	got[1], errs[1] = names(metav1.ListOptions{LabelSelector: "tier,!env"})
	got[2], errs[2] = names(metav1.ListOptions{LabelSelector: "env!=prod,tier"})
	got[3], errs[3] = names(metav1.ListOptions{FieldSelector: "metadata.name=c"})
	return first(errs[0], errs[1], errs[2], errs[3],
		expect("tier in (web,db)", got[0], "a,b"),
		expect("tier,!env", got[1], "b"),
		expect("env!=prod,tier", got[2], "b,c"),
		expect("metadata.name=c", got[3], "c"))
}

func deleteCollection(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	for i, group := range []string{"x", "x", "y"} {
		if _, err := cms.Create(ctx, configMap(fmt.Sprintf("d%d", i), map[string]string{"group": group}, nil),
			metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "group=x"}); err != nil {
		return fmt.Errorf("deletecollection: %w", err)
	}
	return eventually(ctx, "only group=y left", func(ctx context.Context) (bool, string, error) {
		list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "group"})
		if err != nil {
			return false, "", err
		}
		names := []string{}
		for _, cm := range list.Items {
			names = append(names, cm.Name)
		}
		return len(list.Items) == 1 && list.Items[0].Name == "d2", strings.Join(names, ","), nil
	})
}

// patch is shared by the patch checks.
func patchConfigMap(ctx context.Context, s *suite, name string, pt types.PatchType, body string) (*corev1.ConfigMap, error) {
	return s.json.CoreV1().ConfigMaps(s.ns).Patch(ctx, name, pt, []byte(body), metav1.PatchOptions{})
}
