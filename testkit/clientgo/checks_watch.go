package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

func watchChecks() []check {
	return []check{
		{"watch/added-modified-deleted", watchEvents},
		{"watch/resume-from-resourceversion", watchResume},
		{"watch/bookmarks", watchBookmarks},
		{"informer/list-then-watch", func(ctx context.Context, s *suite) error { return informer(ctx, s, false) }},
		{"informer/watch-list", func(ctx context.Context, s *suite) error { return informer(ctx, s, true) }},
	}
}

// next returns the next event of w that is not a bookmark, or an error after 10 s.
func next(w watch.Interface) (watch.Event, error) {
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return watch.Event{}, fmt.Errorf("the watch ended")
			}
			if e.Type == watch.Bookmark {
				continue
			}
			return e, nil
		case <-timeout:
			return watch.Event{}, fmt.Errorf("no event within 10 s")
		}
	}
}

func describe(e watch.Event) string {
	if cm, ok := e.Object.(*corev1.ConfigMap); ok {
		return fmt.Sprintf("%s %s rv=%s", e.Type, cm.Name, cm.ResourceVersion)
	}
	return fmt.Sprintf("%s %T", e.Type, e.Object)
}

func watchEvents(ctx context.Context, s *suite) error {
	cms := s.protobuf.CoreV1().ConfigMaps(s.ns)
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion,
		FieldSelector: "metadata.name=w"})
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer w.Stop()
	cm, err := cms.Create(ctx, configMap("w", nil, map[string]string{"v": "1"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	cm.Data["v"] = "2"
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		return err
	}
	if err := cms.Delete(ctx, "w", metav1.DeleteOptions{}); err != nil {
		return err
	}
	var seen []string
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		e, err := next(w)
		if err != nil {
			return fmt.Errorf("after %v: %w", seen, err)
		}
		seen = append(seen, describe(e))
		if e.Type != want {
			return fmt.Errorf("events %v, want ADDED, MODIFIED, DELETED", seen)
		}
	}
	return nil
}

func watchResume(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	cm, err := cms.Create(ctx, configMap("r", nil, map[string]string{"v": "1"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	from := cm.ResourceVersion
	cm.Data["v"] = "2"
	updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: from, FieldSelector: "metadata.name=r"})
	if err != nil {
		return fmt.Errorf("watch from %s: %w", from, err)
	}
	defer w.Stop()
	e, err := next(w)
	if err != nil {
		return err
	}
	got, _ := e.Object.(*corev1.ConfigMap)
	return first(
		expect("first event after the resourceVersion", e.Type, watch.Modified),
		expect("its resourceVersion", got != nil && got.ResourceVersion == updated.ResourceVersion, true))
}

func watchBookmarks(ctx context.Context, s *suite) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	// A watch with sendInitialEvents streams the current state and then a bookmark marked
	// initial-events-end: what a WatchList informer waits for.
	if _, err := cms.Create(ctx, configMap("b", nil, nil), metav1.CreateOptions{}); err != nil {
		return err
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{AllowWatchBookmarks: true, SendInitialEvents: boolPtr(true),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, ResourceVersion: list.ResourceVersion})
	if err != nil {
		return fmt.Errorf("watch with sendInitialEvents: %w", err)
	}
	defer w.Stop()
	timeout := time.After(15 * time.Second)
	var seen []string
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch ended after %v", seen)
			}
			if e.Type == watch.Bookmark {
				meta, err := metaOf(e.Object)
				if err != nil {
					return err
				}
				if meta.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
					return expect("initial events before the bookmark", strings.Join(seen, ","), "ADDED b")
				}
				continue
			}
			cm, _ := e.Object.(*corev1.ConfigMap)
			if cm != nil && cm.Name == "kube-root-ca.crt" {
				continue
			}
			seen = append(seen, fmt.Sprintf("%s %s", e.Type, cm.GetName()))
		case <-timeout:
			return fmt.Errorf("no initial-events-end bookmark within 15 s (seen %v)", seen)
		}
	}
}

func boolPtr(b bool) *bool { return &b }

func metaOf(obj any) (metav1.Object, error) {
	if m, ok := obj.(metav1.Object); ok {
		return m, nil
	}
	return nil, fmt.Errorf("event object %T has no metadata", obj)
}

// gates switches client-go's WatchListClient feature for the informers made while it is set.
type gates struct{ watchList bool }

func (g gates) Enabled(f clientfeatures.Feature) bool {
	if f == clientfeatures.WatchListClient {
		return g.watchList
	}
	return false
}

var gatesLock sync.Mutex

// informer checks a shared informer's sync and its add, update and delete notifications, with the
// list-then-watch start or (watchList) the streaming WatchList start.
func informer(ctx context.Context, s *suite, watchList bool) error {
	cms := s.json.CoreV1().ConfigMaps(s.ns)
	for _, name := range []string{"i1", "i2", "i3"} {
		if _, err := cms.Create(ctx, configMap(name, map[string]string{"informed": "yes"}, nil),
			metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	var events []string
	record := func(kind string, obj any) {
		if cm, ok := obj.(*corev1.ConfigMap); ok {
			mu.Lock()
			events = append(events, kind+" "+cm.Name)
			mu.Unlock()
		}
	}
	gatesLock.Lock()
	clientfeatures.ReplaceFeatureGates(gates{watchList: watchList})
	factory := informers.NewSharedInformerFactoryWithOptions(s.protobuf, 0, informers.WithNamespace(s.ns),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "informed=yes" }))
	inf := factory.Core().V1().ConfigMaps().Informer()
	gatesLock.Unlock()
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { record("add", obj) },
		UpdateFunc: func(_, obj any) { record("update", obj) },
		DeleteFunc: func(obj any) { record("delete", obj) },
	}); err != nil {
		return err
	}
	stop := make(chan struct{})
	defer close(stop)
	factory.Start(stop)
	syncCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if !cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced) {
		return fmt.Errorf("the informer did not sync within 15 s")
	}
	if n := len(inf.GetStore().ListKeys()); n != 3 {
		return fmt.Errorf("cache holds %d objects after sync, want 3", n)
	}
	cm, err := cms.Create(ctx, configMap("i4", map[string]string{"informed": "yes"}, nil), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	cm.Data = map[string]string{"v": "1"}
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		return err
	}
	if err := cms.Delete(ctx, "i1", metav1.DeleteOptions{}); err != nil {
		return err
	}
	return eventually(ctx, "the informer's notifications", func(context.Context) (bool, string, error) {
		mu.Lock()
		defer mu.Unlock()
		got := strings.Join(events, ",")
		want := []string{"add i1", "add i2", "add i3", "add i4", "update i4", "delete i1"}
		for _, w := range want {
			if !strings.Contains(","+got+",", ","+w+",") {
				return false, got, nil
			}
		}
		return len(events) == len(want), got, nil
	})
}
