package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The soak's binding exists only under JUNCTURE_BENCH=1 with a turn count;
// it keeps the count across page loads, ignores a turn reported twice, and
// logs a sample at the start, every 10 turns and at the end.
func TestBenchSoakCountsTurnsAndSamples(t *testing.T) {
	var log bytes.Buffer
	lg := slog.New(slog.NewTextHandler(&log, nil))
	t.Setenv("JUNCTURE_BENCH", "")
	t.Setenv("JUNCTURE_BENCH_SOAK", "12")
	if b := benchSoakBindings(lg); b != nil {
		t.Fatal("bound without JUNCTURE_BENCH=1")
	}
	t.Setenv("JUNCTURE_BENCH", "1")
	b := benchSoakBindings(lg)
	if len(b) != 1 {
		t.Fatalf("bindings = %v", b)
	}
	s := b[0].(*BenchSoak)
	if got := s.Step(-1, ""); got != (SoakStep{Turn: 0, Total: 12}) {
		t.Fatalf("first load: %+v", got)
	}
	for turn := 0; turn < 11; turn++ {
		s.Step(turn, "")
	}
	if got := s.Step(-1, ""); got.Turn != 11 { // a reload
		t.Fatalf("after a reload: %+v", got)
	}
	if got := s.Step(5, ""); got.Turn != 11 { // a stale report
		t.Fatalf("a turn reported again: %+v", got)
	}
	if got := s.Step(11, "no idle composer"); got.Turn != 12 {
		t.Fatalf("the last turn: %+v", got)
	}
	out := log.String()
	for _, want := range []string{"turn=0 ", "turn=10 ", "turn=12 ", `msg="bench soak done"`, `note="no idle composer"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `msg="bench soak sample"`); n != 3 {
		t.Errorf("%d samples, want 3 (turns 0, 10, 12)", n)
	}
}
