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

	"github.com/juncture-app/juncture/agent/history"
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
func anonKiB(b testing.TB) int {
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

// BenchmarkWriteMemory measures what writing a day of chats leaves in the
// app's memory: 60 new threads of 40 answers (~2 KiB each, indexed for
// search) through the writer, the process's anonymous memory after a
// collection every 10 threads against before the first. What grows is
// the writer's page cache (db.go): it should stop at its cap.
//
//	go test ./store -run '^$' -bench WriteMemory -benchtime 1x
func BenchmarkWriteMemory(b *testing.B) {
	ctx := context.Background()
	text := strings.Repeat("the quick brown fox jumps over the lazy dog with words to index ", 30)
	settle := func() int { runtime.GC(); debug.FreeOSMemory(); return anonKiB(b) }
	var grown []int
	for b.Loop() {
		b.StopTimer()
		db, _ := openFixture(b)
		b.StartTimer()
		start := settle()
		grown = grown[:0]
		for th := range 60 {
			tid := fmt.Sprintf("day%03d", th)
			if err := db.CreateThread(ctx, history.Thread{ID: tid, Title: tid, CreatedAt: 1, UpdatedAt: 1}); err != nil {
				b.Fatal(err)
			}
			for i := range 40 {
				m := history.Message{ID: fmt.Sprintf("%s-%d", tid, i), ThreadID: tid, Role: history.RoleAssistant, Content: fmt.Sprintf("%d %s", i, text), Status: history.StatusComplete, CreatedAt: int64(i)}
				if err := db.PutMessage(ctx, m); err != nil {
					b.Fatal(err)
				}
			}
			if th%10 == 9 {
				grown = append(grown, settle()-start)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "write memory (anon KiB over the start, every 10 threads of 40 answers): %v\n", grown)
	b.ReportMetric(float64(grown[len(grown)-1]), "grown-KiB")
	b.ReportMetric(float64(secondHalf(grown)), "second-half-KiB")
}

// secondHalf is what grew over the second half of the threads written:
// grown holds the growth after every tenth thread (10, 20, …, 60), so the
// half is at index len/2-1 (30 threads), not len/2 (40: the last third).
func secondHalf(grown []int) int {
	return grown[len(grown)-1] - grown[len(grown)/2-1]
}

// BenchmarkWriteMemory's "second-half-KiB" is the growth from 30 threads to
// 60: it read grown[len/2], the growth after 40, and so reported the last
// third as the second half (a cache still filling looked flatter).
func TestWriteMemorySecondHalf(t *testing.T) {
	grown := []int{1000, 2000, 3000, 4000, 5000, 6000} // after 10, 20, …, 60 threads
	if got := secondHalf(grown); got != 3000 {
		t.Errorf("secondHalf = %d KiB, want 3000 (60 threads against 30)", got)
	}
}
