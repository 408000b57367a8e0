package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/juncture-app/juncture/internal/benchprobe"
)

// BenchSoak is bound to the desktop window only under JUNCTURE_BENCH=1
// with JUNCTURE_BENCH_SOAK=<turns> (scripts/bench-soak.sh). The page's
// soak driver (frontend/src/lib/benchSoak.ts) plays the turns by clicking
// the real UI and tells Step each turn it finished; BenchSoak keeps the
// count (the page reloads along the way) and logs a sample ("bench soak
// sample", benchprobe.TakeSoakSample) every 10 turns, which the script reads
// from the app's log, and every turn WebKit's memory and CPU time alone
// ("bench soak web", benchprobe.WebMem: the rise and fall between
// JavaScriptCore's collections). JUNCTURE_BENCH_SOAK_RELOAD sets how often
// the page reloads (SoakStep.ReloadEvery), JUNCTURE_BENCH_SOAK_KINDS which
// kinds of turn it plays (SoakStep.Kinds). It only counts and reads /proc:
// nothing a frame that reaches the binding can use. With
// JUNCTURE_BENCH_SOAK_HEAP=<dir> each sample also writes the Go heap's profile there (heap-0050.pb.gz …), to
// compare two turns with go tool pprof -base, in a build with -tags
// soakheap only (main_soakheap.go): the shipped binary links no profiler.
type BenchSoak struct {
	total   int
	reload  int   // the page reloads after every reload-th turn; 0: never
	kinds   []int // the plan's kinds of turn to play, in a cycle (nil: all ten)
	log     *slog.Logger
	heapDir string
	mu      sync.Mutex
	next    int    // the next turn to play
	began   bool   // the turn-0 sample was taken
	page    string // the page's last facts (Page), logged with the next sample
	t0      time.Time
}

// SoakStep is the turn the page plays next, out of Total, and how often
// the page reloads (after every ReloadEvery-th turn; 0: never).
type SoakStep struct {
	Turn        int   `json:"turn"`
	Total       int   `json:"total"`
	ReloadEvery int   `json:"reloadEvery"`
	Kinds       []int `json:"kinds,omitempty"`
}

// soakPlanKinds is how many kinds of turn the page's plan has
// (PLAN in frontend/src/lib/benchSoak.ts).
const soakPlanKinds = 10

// soakKinds is the kinds of turn JUNCTURE_BENCH_SOAK_KINDS asks for
// ("3" or "0,2,7": indexes into the page's plan), to find which kind of
// turn makes memory grow; nil (all of them, in order) when it is unset or
// names anything else.
func soakKinds() []int {
	v := strings.TrimSpace(os.Getenv("JUNCTURE_BENCH_SOAK_KINDS"))
	if v == "" {
		return nil
	}
	var kinds []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n >= soakPlanKinds || len(kinds) >= 64 {
			return nil
		}
		kinds = append(kinds, n)
	}
	return kinds
}

// soakReloadEvery is how often the soak's page reloads: every 25 turns, as
// a person might now and then, unless JUNCTURE_BENCH_SOAK_RELOAD says
// otherwise; 0 never reloads, to see what WebKit keeps between collections
// when nothing throws the page away.
func soakReloadEvery() int {
	if n, err := strconv.Atoi(os.Getenv("JUNCTURE_BENCH_SOAK_RELOAD")); err == nil && n >= 0 {
		return n
	}
	return 25
}

// benchSoakBindings is the soak's binding when the environment asks for
// one, else nothing.
func benchSoakBindings(log *slog.Logger) []any {
	if os.Getenv("JUNCTURE_BENCH") != "1" {
		return nil
	}
	n, err := strconv.Atoi(os.Getenv("JUNCTURE_BENCH_SOAK"))
	if err != nil || n <= 0 {
		return nil
	}
	// JUNCTURE_BENCH_SOAK_HEAP_RATE (bytes, e.g. 4096 instead of the
	// default 512 KiB) makes the heap profiles name what holds a growth of
	// a few MiB rather than a handful of sampled allocations. Only asked
	// for: the profiler's own records are the Go runtime's memory too, and
	// the soak counts them as the app's.
	if r, err := strconv.Atoi(os.Getenv("JUNCTURE_BENCH_SOAK_HEAP_RATE")); err == nil && r > 0 {
		runtime.MemProfileRate = r
	}
	heapDir := os.Getenv("JUNCTURE_BENCH_SOAK_HEAP")
	if heapDir != "" && !heapProfiles {
		log.Warn("bench soak: no heap profiles in this build (scripts/bench-soak.sh builds with -tags soakheap)")
		heapDir = ""
	}
	return []any{&BenchSoak{total: n, reload: soakReloadEvery(), kinds: soakKinds(), log: log, heapDir: heapDir}}
}

// Step records that the page finished turn finished (-1: the page just
// loaded), with note saying what went wrong in it if anything, and returns
// the turn to play next (Total when the soak is over).
func (s *BenchSoak) Step(finished int, note string) SoakStep {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.began {
		s.began = true
		s.t0 = time.Now()
		s.sample(0)
	}
	if note != "" {
		if len(note) > 200 { // any frame may call the binding: at most 200 bytes into the log, like Page
			note = strings.ToValidUTF8(note[:200], "")
		}
		s.log.Warn("bench soak turn", "turn", finished, "note", note)
	}
	if finished < 0 || finished+1 <= s.next || finished >= s.total {
		s.log.Info("bench soak resume", "turn", s.next)
		return SoakStep{Turn: s.next, Total: s.total, ReloadEvery: s.reload, Kinds: s.kinds}
	}
	s.next = finished + 1
	pss, anon, cpu := benchprobe.WebMem()
	s.log.Info("bench soak web", "turn", s.next, "web_pss", pss, "web_anon", anon, "web_cpu_ms", cpu)
	if s.next%10 == 0 || s.next == s.total {
		s.sample(s.next)
	}
	if s.next == s.total {
		s.log.Info("bench soak done", "turns", s.total, "secs", int(time.Since(s.t0).Seconds()))
	}
	return SoakStep{Turn: s.next, Total: s.total, ReloadEvery: s.reload, Kinds: s.kinds}
}

// Page records what the page holds before a sample turn ("dom=1234
// titems=40 …", lib/benchSoak.ts); the next sample logs it. Only letters,
// digits, '_', '=' and spaces are kept, at most 200 bytes: whatever calls
// the binding writes no more than that into the log.
func (s *BenchSoak) Page(facts string) {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '=', r == ' ':
			return r
		}
		return -1
	}, facts)
	if len(clean) > 200 {
		clean = clean[:200]
	}
	s.mu.Lock()
	s.page = clean
	s.mu.Unlock()
}

func (s *BenchSoak) sample(turn int) {
	s.log.Info("bench soak sample", "turn", turn, "secs", int(time.Since(s.t0).Seconds()), "sample", benchprobe.TakeSoakSample().String(), "page", s.page)
	s.page = ""
	if s.heapDir != "" {
		if err := writeHeapProfile(filepath.Join(s.heapDir, fmt.Sprintf("heap-%04d.pb.gz", turn))); err != nil {
			s.log.Warn("bench soak heap profile", "turn", turn, "err", err)
		}
	}
}
