package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkSearchMemory measures what a burst of searches leaves in the
// app's memory on the 100 k history of BenchmarkSearchScale (generated
// once into JUNCTURE_BENCH_CACHE or build/bench/): the process's anonymous
// memory (SQLite's page caches and working memory, the Go heap) after
// every kind of search ran 30 times on each of the read pool's readers at
// once, and again once the readers have been idle past readerMaxIdle.
//
//	go test ./store -run '^$' -bench SearchMemory -benchtime 1x
func BenchmarkSearchMemory(b *testing.B) {
	dir := os.Getenv("JUNCTURE_BENCH_CACHE")
	if dir == "" {
		dir = filepath.Join("..", "build", "bench")
	}
	db := openCorpus(b, dir, 100_000)
	defer db.Close()
	ctx := context.Background()
	settle := func() int { runtime.GC(); debug.FreeOSMemory(); return anonKiB(b) }
	var opened, burst, idle int
	for b.Loop() {
		opened = settle()
		var wg sync.WaitGroup
		for g := range readers {
			wg.Go(func() {
				for _, k := range searchScaleKinds() {
					for i := range 30 {
						if _, err := db.SearchHistory(ctx, k.queries[(i+g)%len(k.queries)], 20); err != nil {
							b.Error(err)
						}
					}
				}
			})
		}
		wg.Wait()
		burst = settle()
		time.Sleep(readerMaxIdle + 5*time.Second) // database/sql closes idle readers within a second of their limit
		idle = settle()
	}
	fmt.Fprintf(os.Stderr, "search memory (100k, anon KiB): opened %d, after the burst %d (%d readers open), idle %d (%d open)\n",
		opened, burst, readers, idle, db.r.Stats().OpenConnections)
	b.ReportMetric(float64(burst-opened), "burst-KiB")
	b.ReportMetric(float64(idle-opened), "idle-KiB")
}

// anonKiB is the process's anonymous memory (/proc/self/smaps_rollup).
func anonKiB(b *testing.B) int {
	raw, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "Anonymous:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal("no Anonymous: line in /proc/self/smaps_rollup")
	return 0
}
