package main

import (
	"log/slog"
	"os"
	"strconv"
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
// from the app's log. It only counts and reads /proc: nothing a frame that
// reaches the binding can use.
type BenchSoak struct {
	total int
	log   *slog.Logger
	mu    sync.Mutex
	next  int  // the next turn to play
	began bool // the turn-0 sample was taken
	t0    time.Time
}

// SoakStep is the turn the page plays next, out of Total.
type SoakStep struct {
	Turn  int `json:"turn"`
	Total int `json:"total"`
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
	return []any{&BenchSoak{total: n, log: log}}
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
		s.log.Warn("bench soak turn", "turn", finished, "note", note)
	}
	if finished < 0 || finished+1 <= s.next || finished >= s.total {
		s.log.Info("bench soak resume", "turn", s.next)
		return SoakStep{Turn: s.next, Total: s.total}
	}
	s.next = finished + 1
	if s.next%10 == 0 || s.next == s.total {
		s.sample(s.next)
	}
	if s.next == s.total {
		s.log.Info("bench soak done", "turns", s.total, "secs", int(time.Since(s.t0).Seconds()))
	}
	return SoakStep{Turn: s.next, Total: s.total}
}

func (s *BenchSoak) sample(turn int) {
	s.log.Info("bench soak sample", "turn", turn, "secs", int(time.Since(s.t0).Seconds()), "sample", benchprobe.TakeSoakSample().String())
}
