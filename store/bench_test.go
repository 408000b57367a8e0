package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/juncture-app/juncture/agent/history"
)

// Benchmarks run against one generated history, built once per test
// process: 10,000 threads and 100,000 messages (see generate), or 1,000,000 messages with
// JUNCTURE_BENCH_BIG=1. JUNCTURE_BENCH_CACHE=<dir> keeps the generated file
// in dir and reuses it across runs.
//
//	go test ./store -run '^$' -bench . -benchtime 200x
//	JUNCTURE_BENCH_BIG=1 go test ./store -run '^$' -bench . -benchtime 200x -timeout 60m

const (
	benchBigThread = "t-big" // 2,000 messages spread over the whole history
	benchBigSize   = 2_000
	// benchCommonWord is the most frequent word; benchRareWord occurs a
	// handful of times.
	benchCommonWord = "the"
)

var (
	benchOnce sync.Once
	benchDB   *DB
	benchTmp  string
	benchErr  error
	benchInfo string
	benchRare string
)

func benchMessages() int {
	if os.Getenv("JUNCTURE_BENCH_BIG") == "1" {
		return 1_000_000
	}
	return 100_000
}

func closeBenchData() {
	if benchDB != nil {
		benchDB.Close()
	}
	if benchTmp != "" {
		os.RemoveAll(benchTmp)
	}
}

// benchData returns the shared benchmark database.
func benchData(b *testing.B) *DB {
	b.Helper()
	benchOnce.Do(func() {
		n := benchMessages()
		dir := os.Getenv("JUNCTURE_BENCH_CACHE")
		if dir == "" {
			benchTmp, benchErr = os.MkdirTemp("", "juncture-bench-")
			dir = benchTmp
		}
		if benchErr != nil {
			return
		}
		path := filepath.Join(dir, fmt.Sprintf("bench-%d.db", n))
		_, statErr := os.Stat(path)
		start := time.Now()
		benchDB, benchErr = Open(context.Background(), path)
		if benchErr != nil {
			return
		}
		benchRare = vocabulary()[20_000]
		if statErr != nil {
			benchErr = generate(benchDB, n)
			if benchErr != nil {
				return
			}
			if _, benchErr = benchDB.w.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); benchErr != nil {
				return
			}
		}
		fi, _ := os.Stat(path)
		benchInfo = fmt.Sprintf("%d threads, %d messages, %.0f MiB, ready in %s",
			benchThreadsFor(n), n, float64(fi.Size())/(1<<20), time.Since(start).Round(time.Second))
		fmt.Fprintln(os.Stderr, "bench dataset:", benchInfo)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDB
}

// vocabulary is a deterministic word list in frequency order: common
// English words first, then made-up words for the long tail.
func vocabulary() []string {
	words := strings.Fields(`the to and of a in is it you that for on with this be
		are as can file not or if use your have will code from an by at do but
		function error return value so we here run which when data new one
		should make test more like all use need set get how then there what
		output line command model server change version type path name go
		string list request user response config build using check first`)
	syl := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "bri", "dor", "fen", "gal", "hux"}
	r := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for len(words) < 50_000 {
		var w strings.Builder
		for range 2 + r.IntN(3) {
			w.WriteString(syl[r.IntN(len(syl))])
		}
		if !seen[w.String()] {
			seen[w.String()] = true
			words = append(words, w.String())
		}
	}
	return words
}

// measure runs op b.N times and reports the p50 and p95 latencies.
func measure(b *testing.B, op func(i int) error) {
	b.Helper()
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(d)
	pct := func(p float64) float64 {
		return float64(d[int(float64(len(d)-1)*p)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

func BenchmarkListThreadsFirstPage(b *testing.B) {
	db := benchData(b)
	ctx := context.Background()
	measure(b, func(int) error {
		page, err := db.ListThreads(ctx, "", 50)
		if err == nil && len(page.Threads) != 50 {
			err = fmt.Errorf("%d threads", len(page.Threads))
		}
		return err
	})
}

func benchSearch(b *testing.B, q string) {
	db := benchData(b)
	ctx := context.Background()
	measure(b, func(int) error {
		hits, err := db.SearchHistory(ctx, q, 20)
		if err == nil && len(hits) == 0 {
			err = fmt.Errorf("no hits for %q", q)
		}
		return err
	})
}

func BenchmarkSearchCommonWord(b *testing.B) { benchSearch(b, benchCommonWord+" ") }

// BenchmarkSearchMidWord searches a word in about 8% of messages: just
// under bm25Budget, the most expensive case that is still bm25-ranked.
func BenchmarkSearchMidWord(b *testing.B) { benchSearch(b, "like ") }

func BenchmarkSearchRareWord(b *testing.B) {
	benchData(b)
	benchSearch(b, benchRare+" ")
}

// BenchmarkSearchTyping* are searches while the last word is being typed
// (implicit prefix): a 3-letter prefix (served by the prefix index) and a
// 5-letter prefix of a common word (doclists merged).
func BenchmarkSearchTyping3(b *testing.B) { benchSearch(b, "error ret") }

func BenchmarkSearchTypingCommon5(b *testing.B) { benchSearch(b, "retur") }

func BenchmarkSearchTypingCommon3(b *testing.B) { benchSearch(b, "the") }

func BenchmarkSearchTwoCommonWords(b *testing.B) { benchSearch(b, "file error ") }

func BenchmarkMessages2000(b *testing.B) {
	db := benchData(b)
	ctx := context.Background()
	measure(b, func(int) error {
		msgs, err := db.Messages(ctx, benchBigThread)
		if err == nil && len(msgs) != benchBigSize {
			err = fmt.Errorf("%d messages", len(msgs))
		}
		return err
	})
}

func BenchmarkPutMessageAppend(b *testing.B) {
	db := benchData(b)
	ctx := context.Background()
	run := time.Now().UnixNano()
	miss0 := writerStatus(b, db, sqlite.DBStatusCacheMiss)
	measure(b, func(i int) error {
		return db.PutMessage(ctx, history.Message{
			ID: fmt.Sprintf("append-%d-%d", run, i), ThreadID: "t00042", Role: history.RoleUser,
			Content: "a freshly typed question about the build error in main.go", Status: history.StatusComplete, CreatedAt: 1,
		})
	})
	b.ReportMetric(float64(writerStatus(b, db, sqlite.DBStatusCacheMiss)-miss0)/float64(b.N), "misses/op")
}

// BenchmarkCheckpointerUpdate is the cost per streamed token on the
// streaming goroutine (the database write happens in the background).
func BenchmarkCheckpointerUpdate(b *testing.B) {
	db := benchData(b)
	cp := db.NewCheckpointer(0)
	defer cp.Close()
	tokens := strings.Repeat("word ", 4096)
	run := time.Now().UnixNano()
	m := history.Message{ID: fmt.Sprint("stream-", run), ThreadID: "t00043", Role: history.RoleAssistant, Status: history.StatusStreaming}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Content = tokens[:5*(i%4096+1)]
		cp.Update(m)
		i++
	}
}

// BenchmarkListThreadsFirstPageWithCounts is the app's ListThreads: the
// first page plus the one query counting what each thread waits on.
func BenchmarkListThreadsFirstPageWithCounts(b *testing.B) {
	db := benchData(b)
	ctx := context.Background()
	measure(b, func(int) error {
		page, err := db.ListThreads(ctx, "", 50)
		if err != nil {
			return err
		}
		ids := make([]string, len(page.Threads))
		for i, t := range page.Threads {
			ids[i] = t.ID
		}
		_, err = db.PendingCounts(ctx, ids)
		return err
	})
}

// writerStatus reads one of sqlite3_db_status's counters on the writer
// connection.
func writerStatus(b testing.TB, db *DB, op sqlite.DBStatusOp) int {
	c, err := db.w.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var cur int
	if err := c.Raw(func(dc any) error {
		var err error
		cur, _, err = dc.(sqlite.DBStatus).Status(op, false)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return cur
}
