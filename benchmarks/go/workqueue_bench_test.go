// Package workqueue runs client-go's util/workqueue through the same scenarios as the Java
// work-queue benchmarks (io.podset.benchmarks.workqueue), so benchmarks/run.sh can put the
// three implementations side by side. Keys are strings like "namespace/name-N" in every language.
//
// Run: go test -run '^$' -bench . -benchmem
package workqueue

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// batch is the number of delayed or rate-limited adds made on one fresh queue (as the Java side).
const batch = 1000

func keys(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "default/" + prefix + "-" + strconv.Itoa(i)
	}
	return out
}

func newQueue() workqueue.TypedRateLimitingInterface[string] {
	return workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
}

// BenchmarkCycle is one add, get and done of a key on one goroutine (ns per cycle).
func BenchmarkCycle(b *testing.B) {
	q := newQueue()
	defer q.ShutDown()
	ks := keys("cycle", 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Add(ks[i&1023])
		k, _ := q.Get()
		q.Done(k)
	}
}

// BenchmarkAddAfter adds distinct keys with a one-hour delay, batch keys per fresh queue; the
// queue's creation and shutdown are not timed.
func BenchmarkAddAfter(b *testing.B) {
	benchmarkDelayed(b, func(q workqueue.TypedRateLimitingInterface[string], k string) {
		q.AddAfter(k, time.Hour)
	})
}

// BenchmarkAddRateLimited rate-limits distinct keys with the default controller limiter, batch
// keys per fresh queue; the queue's creation and shutdown are not timed.
func BenchmarkAddRateLimited(b *testing.B) {
	benchmarkDelayed(b, func(q workqueue.TypedRateLimitingInterface[string], k string) {
		q.AddRateLimited(k)
	})
}

func benchmarkDelayed(b *testing.B, op func(workqueue.TypedRateLimitingInterface[string], string)) {
	ks := keys("delayed", batch)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		b.StopTimer()
		q := newQueue()
		b.StartTimer()
		n := min(batch, b.N-done)
		for i := 0; i < n; i++ {
			op(q, ks[i])
		}
		done += n
		b.StopTimer()
		q.ShutDown()
		b.StartTimer()
	}
}

// BenchmarkDedup: one producer adds b.N times over 10k keys while two workers get and done;
// reports the workers' gets per second until the queue is drained.
func BenchmarkDedup(b *testing.B) {
	ks := keys("dedup", 10_000)
	benchmarkWorkers(b, "gets/s", func(q workqueue.TypedRateLimitingInterface[string]) {
		for i := 0; i < b.N; i++ {
			q.Add(ks[i%len(ks)])
		}
	})
}

// BenchmarkUnique: one producer adds b.N distinct keys while two workers get and done; reports
// keys processed per second.
func BenchmarkUnique(b *testing.B) {
	ks := keys("unique", b.N)
	benchmarkWorkers(b, "ops/s", func(q workqueue.TypedRateLimitingInterface[string]) {
		for i := 0; i < b.N; i++ {
			q.Add(ks[i])
		}
	})
}

func benchmarkWorkers(b *testing.B, unit string, produce func(workqueue.TypedRateLimitingInterface[string])) {
	q := newQueue()
	var gets atomic.Int64
	var workers sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < 2; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				gets.Add(1)
				q.Done(k)
			}
		}()
	}
	produce(q)
	q.ShutDownWithDrain()
	workers.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(gets.Load())/elapsed.Seconds(), unit)
}
