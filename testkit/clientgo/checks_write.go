package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	corev1apply "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/utils/ptr"
)

func writeChecks() []check {
	return []check{
		{"patch/json-patch", jsonPatch},
		{"patch/merge-patch", mergePatch},
		{"patch/strategic-merge-patch", strategicMergePatch},
		{"apply/managers-conflicts-force-removal", serverSideApply},
		{"finalizers/delete-waits-for-removal", finalizers},
		{"dynamic/custom-resource-status-and-scale", customResource},
		{"leaderelection/lease-acquire-and-release", leaderElection},
		{"events/one-store-two-apis", events},
		{"warnings/unknown-field", unknownFieldWarning},
	}
}

func jsonPatch(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	if _, err := cms.Create(ctx, configMap("j", nil, map[string]string{"a": "1"}), metav1.CreateOptions{}); err != nil {
		return err
	}
	patched, err := patchConfigMap(ctx, s, "j", types.JSONPatchType,
		`[{"op":"test","path":"/data/a","value":"1"},{"op":"add","path":"/data/b","value":"2"},{"op":"remove","path":"/data/a"}]`)
	if err != nil {
		return fmt.Errorf("json patch: %w", err)
	}
	_, failed := patchConfigMap(ctx, s, "j", types.JSONPatchType, `[{"op":"test","path":"/data/b","value":"9"}]`)
	status, _ := failed.(apierrors.APIStatus)
	return first(
		expect("data after the patch", fmt.Sprint(patched.Data), "map[b:2]"),
		expect("a failed test op is refused", failed != nil, true),
		expect("its code", status != nil && status.Status().Code == 422, true))
}

func mergePatch(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	if _, err := cms.Create(ctx, configMap("m", map[string]string{"keep": "1", "drop": "1"},
		map[string]string{"a": "1"}), metav1.CreateOptions{}); err != nil {
		return err
	}
	patched, err := patchConfigMap(ctx, s, "m", types.MergePatchType,
		`{"metadata":{"labels":{"drop":null,"new":"1"}},"data":{"b":"2"}}`)
	if err != nil {
		return fmt.Errorf("merge patch: %w", err)
	}
	return first(
		expect("labels", fmt.Sprint(patched.Labels), "map[keep:1 new:1]"),
		expect("data", fmt.Sprint(patched.Data), "map[a:1 b:2]"))
}

func strategicMergePatch(ctx context.Context, s *suite) error {
	deployments := s.json.AppsV1().Deployments(s.ns)
	labels := map[string]string{"app": "smp"}
	_, err := deployments.Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "smp"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "busybox:1.36",
					Env: []corev1.EnvVar{{Name: "A", Value: "1"}}}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	// Lists merge by their merge key (containers by name, env by name); a list without one is
	// replaced.
	patched, err := deployments.Patch(ctx, "smp", types.StrategicMergePatchType, []byte(
		`{"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"2"}]},{"name":"side","image":"busybox:1.37"}]}}}}`),
		metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("strategic merge patch: %w", err)
	}
	containers := patched.Spec.Template.Spec.Containers
	var env []string
	for _, e := range containers[0].Env {
		env = append(env, e.Name+"="+e.Value)
	}
	// A list of strings with the merge strategy (finalizers) is a union, in the same order.
	cm := configMap("fin", nil, nil)
	cm.Finalizers = []string{"example.com/a", "example.com/c"}
	if _, err := s.json.CoreV1().ConfigMaps(s.ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		return err
	}
	merged, err := patchConfigMap(ctx, s, "fin", types.StrategicMergePatchType,
		`{"metadata":{"finalizers":["example.com/b","example.com/c"]}}`)
	if err != nil {
		return fmt.Errorf("strategic merge patch of finalizers: %w", err)
	}
	if _, err := patchConfigMap(ctx, s, "fin", types.MergePatchType, `{"metadata":{"finalizers":null}}`); err != nil {
		return err
	}
	return first(
		expect("containers", len(containers), 2),
		expect("first container's image kept", containers[0].Image, "busybox:1.36"),
		expect("env merged by name, in the server's order", strings.Join(env, ","), "B=2,A=1"),
		expect("finalizers merged, in the server's order", strings.Join(merged.Finalizers, ","),
			"example.com/b,example.com/a,example.com/c"))
}

func applied(cm *corev1.ConfigMap, manager string, operation metav1.ManagedFieldsOperationType) bool {
	for _, e := range cm.ManagedFields {
		if e.Manager == manager && e.Operation == operation {
			return true
		}
	}
	return false
}

func serverSideApply(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	apply := func(manager string, force bool, data map[string]string) (*corev1.ConfigMap, error) {
		return cms.Apply(ctx, corev1apply.ConfigMap("ssa", s.ns).WithData(data),
			metav1.ApplyOptions{FieldManager: manager, Force: force})
	}
	if _, err := apply("alice", false, map[string]string{"a": "1", "b": "1"}); err != nil {
		return fmt.Errorf("alice's apply: %w", err)
	}
	_, conflict := apply("bob", false, map[string]string{"a": "2"})
	forced, err := apply("bob", true, map[string]string{"a": "2"})
	if err != nil {
		return fmt.Errorf("bob's forced apply: %w", err)
	}
	// alice stops applying b: it goes (nobody else owns it); a stays, bob owns it now.
	dropped, err := apply("alice", false, map[string]string{})
	if err != nil {
		return fmt.Errorf("alice's second apply: %w", err)
	}
	afterDrop := fmt.Sprint(dropped.Data)
	dropped.Data["c"] = "3"
	updated, err := cms.Update(ctx, dropped, metav1.UpdateOptions{FieldManager: "carol"})
	if err != nil {
		return fmt.Errorf("carol's update: %w", err)
	}
	return first(
		expect("bob's apply of alice's field is a conflict", apierrors.IsConflict(conflict), true),
		expect("the conflict names alice", conflict != nil && strings.Contains(conflict.Error(),
			`conflict with "alice"`), true),
		expect("forced value", forced.Data["a"], "2"),
		expect("data after alice dropped b", afterDrop, "map[a:2]"),
		expect("bob's Apply entry", applied(updated, "bob", metav1.ManagedFieldsOperationApply), true),
		expect("carol's Update entry", applied(updated, "carol", metav1.ManagedFieldsOperationUpdate), true))
}

func finalizers(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	cm := configMap("f", nil, nil)
	cm.Finalizers = []string{"example.com/hold"}
	if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		return err
	}
	if err := cms.Delete(ctx, "f", metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	held, err := cms.Get(ctx, "f", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get while held: %w", err)
	}
	if held.DeletionTimestamp == nil {
		return fmt.Errorf("no deletionTimestamp on an object deleted with a finalizer")
	}
	if _, err := patchConfigMap(ctx, s, "f", types.MergePatchType, `{"metadata":{"finalizers":null}}`); err != nil {
		return fmt.Errorf("removing the finalizer: %w", err)
	}
	return eventually(ctx, "the object gone once its finalizer is", func(ctx context.Context) (bool, string, error) {
		_, err := cms.Get(ctx, "f", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err), nil
	})
}

func customResource(ctx context.Context, s *suite) error {
	group := "cg" + rand.String(6) + ".podset.io"
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget",
				Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"replicas": {Type: "integer"}}},
						"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"replicas": {Type: "integer"}, "selector": {Type: "string"}}},
					},
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{
					Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
					Scale: &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas",
						StatusReplicasPath: ".status.replicas", LabelSelectorPath: ptr.To(".status.selector")},
				},
			}},
		},
	}
	crds := s.extensions.ApiextensionsV1().CustomResourceDefinitions()
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create CRD: %w", err)
	}
	defer func() { _ = crds.Delete(context.Background(), crd.Name, metav1.DeleteOptions{}) }()
	if err := eventually(ctx, "the CRD Established", func(ctx context.Context) (bool, string, error) {
		got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true, "", nil
			}
		}
		return false, fmt.Sprint(got.Status.Conditions), nil
	}); err != nil {
		return err
	}
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}
	widgets := s.dynamic.Resource(gvr).Namespace(s.ns)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"},
		"spec":     map[string]any{"replicas": int64(1)},
		"status":   map[string]any{"replicas": int64(7)},
	}}
	var created *unstructured.Unstructured
	// The served resource may answer 404 for a moment after Established (discovery catches up).
	if err := eventually(ctx, "the custom resource created", func(ctx context.Context) (bool, string, error) {
		var err error
		created, err = widgets.Create(ctx, obj, metav1.CreateOptions{})
		if apierrors.IsNotFound(err) {
			return false, err.Error(), nil
		}
		return err == nil, "", err
	}); err != nil {
		return err
	}
	_, createdHasStatus, _ := unstructured.NestedFieldNoCopy(created.Object, "status", "replicas")
	status := created.DeepCopy()
	_ = unstructured.SetNestedField(status.Object, int64(1), "status", "replicas")
	_ = unstructured.SetNestedField(status.Object, "app=w", "status", "selector")
	_ = unstructured.SetNestedField(status.Object, int64(5), "spec", "replicas")
	afterStatus, err := widgets.UpdateStatus(ctx, status, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	specAfterStatus, _, _ := unstructured.NestedInt64(afterStatus.Object, "spec", "replicas")
	scale, err := widgets.Get(ctx, "w", metav1.GetOptions{}, "scale")
	if err != nil {
		return fmt.Errorf("get scale: %w", err)
	}
	scaleReplicas, _, _ := unstructured.NestedInt64(scale.Object, "spec", "replicas")
	scaleSelector, _, _ := unstructured.NestedString(scale.Object, "status", "selector")
	_ = unstructured.SetNestedField(scale.Object, int64(3), "spec", "replicas")
	if _, err := widgets.Update(ctx, scale, metav1.UpdateOptions{}, "scale"); err != nil {
		return fmt.Errorf("update scale: %w", err)
	}
	after, err := widgets.Get(ctx, "w", metav1.GetOptions{})
	if err != nil {
		return err
	}
	specAfterScale, _, _ := unstructured.NestedInt64(after.Object, "spec", "replicas")
	return first(
		expect("status dropped from a create (status subresource)", createdHasStatus, false),
		expect("spec unchanged by a status update", specAfterStatus, int64(1)),
		expect("scale kind", scale.GetKind(), "Scale"),
		expect("scale's spec.replicas", scaleReplicas, int64(1)),
		expect("scale's status.selector", scaleSelector, "app=w"),
		expect("spec.replicas after a scale update", specAfterScale, int64(3)))
}

func leaderElection(ctx context.Context, s *suite) error {
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, s.ns, "leader",
		s.protobuf.CoreV1(), s.protobuf.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: "me"})
	if err != nil {
		return err
	}
	leading := make(chan struct{})
	stopped := make(chan struct{})
	electionCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: lock, LeaseDuration: 5 * time.Second, RenewDeadline: 3 * time.Second,
		RetryPeriod: time.Second, ReleaseOnCancel: true, Name: "clientgo-conformance",
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { close(leading) },
			OnStoppedLeading: func() { close(stopped) },
		},
	})
	if err != nil {
		return err
	}
	go elector.Run(electionCtx)
	select {
	case <-leading:
	case <-time.After(15 * time.Second):
		return fmt.Errorf("did not acquire the Lease within 15 s")
	}
	// The elector renews at once after acquiring, then every RetryPeriod. A cancel while a renew is
	// in flight lets the server commit that renew after the release read the Lease, so the release
	// conflicts (409) and the holder stays: client-go's race, not the server's. Cancel in the pause
	// after the first renew instead.
	var held *coordinationv1.Lease
	deadline := time.Now().Add(5 * time.Second)
	for {
		if held, err = s.json.CoordinationV1().Leases(s.ns).Get(ctx, "leader", metav1.GetOptions{}); err != nil {
			return err
		}
		if held.Spec.RenewTime != nil && held.Spec.AcquireTime != nil && held.Spec.RenewTime.After(held.Spec.AcquireTime.Time) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the Lease was not renewed within 5 s of its acquisition")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		return fmt.Errorf("did not stop leading within 10 s of the cancel")
	}
	released, err := s.json.CoordinationV1().Leases(s.ns).Get(ctx, "leader", metav1.GetOptions{})
	if err != nil {
		return err
	}
	return first(
		expect("holder while leading", ptr.Deref(held.Spec.HolderIdentity, "<nil>"), "me"),
		expect("holder after the release", ptr.Deref(released.Spec.HolderIdentity, "<nil>"), ""),
		expect("lease duration after the release", ptr.Deref(released.Spec.LeaseDurationSeconds, 0), int32(1)))
}

func events(ctx context.Context, s *suite) error {
	now := metav1.NewMicroTime(time.Now())
	regarding := corev1.ObjectReference{Kind: "ConfigMap", Namespace: s.ns, Name: "subject", APIVersion: "v1"}
	_, err := s.protobuf.EventsV1().Events(s.ns).Create(ctx, &eventsv1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "from-events-api"}, EventTime: now, Regarding: regarding,
		Reason: "Tested", Note: "written through events.k8s.io/v1", Type: corev1.EventTypeNormal,
		Action: "Check", ReportingController: "example.com/conformance", ReportingInstance: "conformance-1",
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create through events.k8s.io/v1: %w", err)
	}
	_, err = s.protobuf.CoreV1().Events(s.ns).Create(ctx, &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "from-core-api"}, InvolvedObject: regarding,
		Reason: "Tested", Message: "written through core/v1", Type: corev1.EventTypeNormal,
		FirstTimestamp: metav1.NewTime(now.Time), LastTimestamp: metav1.NewTime(now.Time), Count: 1,
		Source: corev1.EventSource{Component: "conformance"},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create through core/v1: %w", err)
	}
	core, err := s.json.CoreV1().Events(s.ns).Get(ctx, "from-events-api", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("the events.k8s.io event through core/v1: %w", err)
	}
	ev, err := s.json.EventsV1().Events(s.ns).Get(ctx, "from-core-api", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("the core/v1 event through events.k8s.io/v1: %w", err)
	}
	return first(
		expect("core/v1 message of the events.k8s.io note", core.Message, "written through events.k8s.io/v1"),
		expect("core/v1 involvedObject", core.InvolvedObject.Name, "subject"),
		expect("events.k8s.io note of the core/v1 message", ev.Note, "written through core/v1"),
		expect("events.k8s.io regarding", ev.Regarding.Name, "subject"))
}

func unknownFieldWarning(ctx context.Context, s *suite) error {
	s.warned.take()
	body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"warned"},"data":{"a":"1"},"nope":1}`
	result := s.warnedJSON.CoreV1().RESTClient().Post().Namespace(s.ns).Resource("configmaps").
		SetHeader("Content-Type", "application/json").Body([]byte(body)).Do(ctx)
	if err := result.Error(); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	got, err := s.json.CoreV1().ConfigMaps(s.ns).Get(ctx, "warned", metav1.GetOptions{})
	if err != nil {
		return err
	}
	return first(
		expect("warnings", strings.Join(s.warned.take(), "|"), `unknown field "nope"`),
		expect("data stored", got.Data["a"], "1"))
}
