package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// suite holds the clients every check uses; in() gives a copy bound to one namespace.
type suite struct {
	config     *rest.Config
	json       kubernetes.Interface // typed, JSON bodies
	protobuf   kubernetes.Interface // typed, protobuf bodies (client-go's choice for built-in kinds)
	dynamic    dynamic.Interface
	discovery  discovery.DiscoveryInterface
	extensions apiextensions.Interface
	warned     *warnings
	warnedJSON kubernetes.Interface // typed JSON whose Warning headers land in warned
	ns         string
}

func newSuite(config *rest.Config) (*suite, error) {
	s := &suite{config: config, warned: &warnings{}}
	var err error
	if s.json, err = kubernetes.NewForConfig(config); err != nil {
		return nil, err
	}
	pb := rest.CopyConfig(config)
	pb.ContentType = "application/vnd.kubernetes.protobuf"
	pb.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	if s.protobuf, err = kubernetes.NewForConfig(pb); err != nil {
		return nil, err
	}
	if s.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return nil, err
	}
	if s.discovery, err = discovery.NewDiscoveryClientForConfig(config); err != nil {
		return nil, err
	}
	if s.extensions, err = apiextensions.NewForConfig(config); err != nil {
		return nil, err
	}
	warnedConfig := rest.CopyConfig(config)
	warnedConfig.WarningHandler = s.warned
	if s.warnedJSON, err = kubernetes.NewForConfig(warnedConfig); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *suite) in(ns string) *suite {
	c := *s
	c.ns = ns
	return &c
}

func (s *suite) newNamespace(ctx context.Context, check string) (string, error) {
	name := "cg-" + strings.ToLower(strings.ReplaceAll(check, "/", "-"))
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-") + "-" + rand.String(5)
	_, err := s.json.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	return name, err
}

func (s *suite) deleteNamespace(ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = s.json.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
}

// eventually polls cond every 50 ms until it is true, the context ends or 20 s pass; the error
// says what was awaited and the last reason cond gave.
func eventually(ctx context.Context, what string, cond func(ctx context.Context) (bool, string, error)) error {
	last := ""
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 20*time.Second, true,
		func(ctx context.Context) (bool, error) {
			ok, why, err := cond(ctx)
			last = why
			return ok, err
		})
	if err != nil {
		return fmt.Errorf("%s: %w (last seen: %s)", what, err, last)
	}
	return nil
}

// expect returns an error naming what differed when got != want.
func expect[T comparable](what string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
