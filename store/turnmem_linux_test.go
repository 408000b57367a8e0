package store

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/juncture-app/juncture/agent/history"
)

// BenchmarkTurnMemory measures what a day of turns leaves in the app's
// memory with reads beside the writes, as the desktop soak plays them
// (scripts/bench-soak.sh): 500 turns, a new chat every 5, each turn a
// question and an answer (~2 KiB, indexed for search, written four times
// as it streams) through the writer
// while the window's reads run on the read pool from three goroutines at
// once (the chat's messages, the sidebar's first page of chats, and every
// 10th turn a search). It reports the process's anonymous memory after a
// collection at turn 500 against turn 50 (SQLite's page caches and working
// memory, the Go heap), the soak's own anchor.
//
//	go test ./store -run '^$' -bench TurnMemory -benchtime 1x
func BenchmarkTurnMemory(b *testing.B) {
	ctx := context.Background()
	text := strings.Repeat("the quick brown fox jumps over the lazy dog with words to index ", 30)
	settle := func() int { runtime.GC(); debug.FreeOSMemory(); return anonKiB(b) }
	var at []int
	var misses int
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		db, _ := openFixture(b)
		b.StartTimer()
		start := settle()
		miss0, cpu0 := writerStatus(b, db, sqlite.DBStatusCacheMiss), cpuTime(b)
		at = at[:0]
		var tid string
		for turn := range 500 {
			if turn%5 == 0 {
				tid = fmt.Sprintf("chat%04d", turn)
				if err := db.CreateThread(ctx, history.Thread{ID: tid, Title: tid, CreatedAt: int64(turn), UpdatedAt: int64(turn)}); err != nil {
					b.Fatal(err)
				}
			}
			// The question, then the answer as the checkpointer writes it
			// while it streams (the same row, longer each time) and done.
			q := history.Message{ID: newID(), ThreadID: tid, Role: history.RoleUser, Content: fmt.Sprintf("%d %s", turn, text[:200]), Status: history.StatusComplete, CreatedAt: int64(turn * 2)}
			if err := db.PutMessage(ctx, q); err != nil {
				b.Fatal(err)
			}
			a := history.Message{ID: newID(), ThreadID: tid, Role: history.RoleAssistant, Status: history.StatusStreaming, CreatedAt: int64(turn*2 + 1)}
			for part := range 4 {
				a.Content = fmt.Sprintf("%d %s", turn, text[:len(text)*(part+1)/4])
				if part == 3 {
					a.Status = history.StatusComplete
				}
				if err := db.PutMessage(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			wg.Go(func() {
				if _, err := db.Messages(ctx, tid); err != nil {
					b.Error(err)
				}
			})
			wg.Go(func() {
				if _, err := db.ListThreads(ctx, "", 0); err != nil {
					b.Error(err)
				}
			})
			wg.Go(func() {
				if turn%10 == 0 {
					if _, err := db.SearchHistory(ctx, fmt.Sprintf("fox %d", turn/2), 20); err != nil {
						b.Error(err)
					}
				} else if _, err := db.Messages(ctx, fmt.Sprintf("chat%04d", turn/2/5*5)); err != nil {
					b.Error(err)
				}
			})
			wg.Wait()
			if turn%50 == 49 {
				at = append(at, settle()-start)
			}
		}
		misses, cpu = writerStatus(b, db, sqlite.DBStatusCacheMiss)-miss0, cpuTime(b)-cpu0
	}
	fmt.Fprintf(os.Stderr, "turn memory (anon KiB over the start, every 50 turns): %v\n", at)
	b.ReportMetric(float64(at[len(at)-1]-at[0]), "end-vs-turn50-KiB")
	b.ReportMetric(float64(at[len(at)-1]), "grown-KiB")
	b.ReportMetric(float64(misses)/500, "writer-misses/turn")
	b.ReportMetric(float64(cpu.Microseconds())/500, "cpu-µs/turn")
}

// cpuTime is the process's CPU time, user and system.
func cpuTime(b testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPutMessageSpread is the writer's side of a day's turns on a
// large history: short messages with random ids (as the app makes them) to
// threads spread over BenchmarkPutMessageAppend's 100 k history, with the
// writer's page-cache misses and the process's CPU per append (the
// fsync's wait is not CPU), the cost of a smaller writer cache (db.go).
//
//	go test ./store -run '^$' -bench PutMessageSpread -benchtime 3000x
func BenchmarkPutMessageSpread(b *testing.B) {
	db := benchData(b)
	ctx := context.Background()
	miss0, cpu0 := writerStatus(b, db, sqlite.DBStatusCacheMiss), cpuTime(b)
	i := 0
	for b.Loop() {
		if err := db.PutMessage(ctx, history.Message{
			ID: newID(), ThreadID: fmt.Sprintf("t%05d", 1+(i*7919)%9999), Role: history.RoleUser,
			Content: "a freshly typed question about the build error in main.go", Status: history.StatusComplete, CreatedAt: 1,
		}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(writerStatus(b, db, sqlite.DBStatusCacheMiss)-miss0)/float64(b.N), "misses/op")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}
