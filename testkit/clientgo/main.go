// Command clientgo-conformance runs what Go operators and kubectl rely on, with client-go and its
// defaults, against an API server: the testkit's fake and a real kube-apiserver are judged by the
// same checks. It prints one JSON line per check ({"check","ok","error"}) and a summary line, and
// exits 1 when a check failed.
//
// Usage: clientgo-conformance --kubeconfig FILE [--only SUBSTRING]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// A check gets a fresh namespace of its own and returns nil when the server behaved.
type check struct {
	name string
	run  func(ctx context.Context, s *suite) error
}

type result struct {
	Check string  `json:"check"`
	OK    bool    `json:"ok"`
	Error string  `json:"error,omitempty"`
	Secs  float64 `json:"seconds"`
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig of the server to check")
	only := flag.String("only", "", "run only the checks whose name contains this")
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "--kubeconfig is required")
		os.Exit(2)
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot read --kubeconfig %q: %v\n", *kubeconfig, err)
		os.Exit(2)
	}
	config.QPS, config.Burst = 500, 1000
	s, err := newSuite(config)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot build clients: %v\n", err)
		os.Exit(2)
	}
	checks := allChecks()
	sort.SliceStable(checks, func(i, j int) bool { return checks[i].name < checks[j].name })
	failed, ran := 0, 0
	out := json.NewEncoder(os.Stdout)
	for _, c := range checks {
		if *only != "" && !strings.Contains(c.name, *only) {
			continue
		}
		ran++
		start := time.Now()
		err := runOne(s, c)
		r := result{Check: c.name, OK: err == nil, Secs: time.Since(start).Seconds()}
		if err != nil {
			r.Error = err.Error()
			failed++
		}
		_ = out.Encode(r)
	}
	_ = out.Encode(map[string]int{"ran": ran, "failed": failed})
	if failed > 0 {
		os.Exit(1)
	}
}

// runOne runs a check in a namespace of its own, with a deadline, recovering from a panic.
func runOne(s *suite, c check) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	ns, err := s.newNamespace(ctx, c.name)
	if err != nil {
		return fmt.Errorf("cannot create the check's namespace: %w", err)
	}
	defer s.deleteNamespace(ns)
	return c.run(ctx, s.in(ns))
}

// warnings collects the Warning headers a client saw.
type warnings struct {
	mu   sync.Mutex
	seen []string
}

func (w *warnings) HandleWarningHeader(code int, agent string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, text)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := w.seen
	w.seen = nil
	return seen
}

var _ rest.WarningHandler = (*warnings)(nil)
