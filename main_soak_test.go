package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	if got := s.Step(-1, ""); !reflect.DeepEqual(got, SoakStep{Turn: 0, Total: 12, ReloadEvery: 25}) {
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

// With JUNCTURE_BENCH_SOAK_HEAP each sample writes the Go heap's profile
// there (a build with -tags soakheap; without it, none and one warning);
// the page's facts go into the next sample's line, stripped to
// letters, digits, '_', '=' and spaces and at most 200 bytes.
func TestBenchSoakHeapProfilesAndPageFacts(t *testing.T) {
	var log bytes.Buffer
	dir := t.TempDir()
	t.Setenv("JUNCTURE_BENCH", "1")
	t.Setenv("JUNCTURE_BENCH_SOAK", "10")
	t.Setenv("JUNCTURE_BENCH_SOAK_HEAP", dir)
	s := benchSoakBindings(slog.New(slog.NewTextHandler(&log, nil)))[0].(*BenchSoak)
	s.Step(-1, "")
	for turn := 0; turn < 9; turn++ {
		s.Step(turn, "")
	}
	s.Page("dom=1234 titems=40\n\"level=ERROR\" <b>" + strings.Repeat("x", 300))
	s.Step(9, "")
	names, _ := filepath.Glob(filepath.Join(dir, "heap-*.pb.gz"))
	if !heapProfiles {
		// the shipped build links no profiler: it says so once and writes none
		if len(names) != 0 || strings.Count(log.String(), "no heap profiles in this build") != 1 {
			t.Errorf("a build without -tags soakheap: profiles %v, log:\n%s", names, log.String())
		}
	}
	for _, name := range []string{"heap-0000.pb.gz", "heap-0010.pb.gz"} {
		if !heapProfiles {
			break
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var first, last string
	for _, l := range lines {
		if strings.Contains(l, `msg="bench soak sample" turn=0 `) {
			first = l
		}
		if strings.Contains(l, `msg="bench soak sample" turn=10 `) {
			last = l
		}
	}
	want := `page="dom=1234 titems=40level=ERROR b` + strings.Repeat("x", 200-len("dom=1234 titems=40level=ERROR b")) + `"`
	if !strings.HasSuffix(last, want) {
		t.Errorf("turn 10's sample line:\n%s\nwant it to end in %s", last, want)
	}
	if first == "" || strings.Contains(first, "dom=") {
		t.Errorf("the turn-0 sample (%q) is missing or logged page facts given later", first)
	}
}

// TestBenchSoakNoteIsBounded: any frame of the window may call the soak's
// binding (a view's too), so Step's note reaches the log at most 200 bytes
// long, like Page's facts: a megabyte note cost the log a megabyte per call.
func TestBenchSoakNoteIsBounded(t *testing.T) {
	var log bytes.Buffer
	t.Setenv("JUNCTURE_BENCH", "1")
	t.Setenv("JUNCTURE_BENCH_SOAK", "10")
	s := benchSoakBindings(slog.New(slog.NewTextHandler(&log, nil)))[0].(*BenchSoak)
	s.Step(-1, "")
	before := log.Len()
	s.Step(0, "reply timed out: "+strings.Repeat("é", 1<<19))
	if grew := log.Len() - before; grew > 600 {
		t.Errorf("one note grew the log by %d bytes, want at most ~200 for the note", grew)
	}
	if !strings.Contains(log.String(), `note="reply timed out: é`) {
		t.Errorf("the note's start is lost:\n%.300s", log.String()[before:])
	}
}

// JUNCTURE_BENCH_SOAK_RELOAD sets how often the page reloads (every 25
// turns unless told; 0: never, to see what a person who never reloads
// sees), and every finished turn logs the web process's memory on a line
// of its own ("bench soak web"), between the full samples.
func TestBenchSoakReloadCadenceAndPerTurnWebLine(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int
	}{
		{"", 25},
		{"0", 0},
		{"10", 10},
		{"-3", 25},
		{"soon", 25},
	} {
		var log bytes.Buffer
		t.Setenv("JUNCTURE_BENCH", "1")
		t.Setenv("JUNCTURE_BENCH_SOAK", "3")
		t.Setenv("JUNCTURE_BENCH_SOAK_RELOAD", tc.env)
		s := benchSoakBindings(slog.New(slog.NewTextHandler(&log, nil)))[0].(*BenchSoak)
		if got := s.Step(-1, ""); got.ReloadEvery != tc.want {
			t.Errorf("JUNCTURE_BENCH_SOAK_RELOAD=%q: reloadEvery %d, want %d", tc.env, got.ReloadEvery, tc.want)
		}
		for turn := 0; turn < 3; turn++ {
			if got := s.Step(turn, ""); got.ReloadEvery != tc.want {
				t.Errorf("JUNCTURE_BENCH_SOAK_RELOAD=%q, turn %d: reloadEvery %d", tc.env, turn, got.ReloadEvery)
			}
		}
		out := log.String()
		for _, want := range []string{`msg="bench soak web" turn=1 web_pss=`, `msg="bench soak web" turn=2 `, `msg="bench soak web" turn=3 `} {
			if !strings.Contains(out, want) {
				t.Errorf("log lacks %q:\n%s", want, out)
			}
		}
		if n := strings.Count(out, `msg="bench soak web"`); n != 3 {
			t.Errorf("%d per-turn lines, want 3", n)
		}
	}
}

// JUNCTURE_BENCH_SOAK_KINDS picks the kinds of turn the page plays (indexes
// into its plan of ten), to find which one makes memory grow; anything
// else plays them all.
func TestBenchSoakKinds(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want []int
	}{
		{"", nil},
		{"3", []int{3}},
		{" 0, 2 ,7", []int{0, 2, 7}},
		{"10", nil},
		{"-1", nil},
		{"1,x", nil},
		{strings.Repeat("1,", 64) + "1", nil},
	} {
		t.Setenv("JUNCTURE_BENCH", "1")
		t.Setenv("JUNCTURE_BENCH_SOAK", "3")
		t.Setenv("JUNCTURE_BENCH_SOAK_KINDS", tc.env)
		s := benchSoakBindings(slog.New(slog.NewTextHandler(io.Discard, nil)))[0].(*BenchSoak)
		for _, got := range []SoakStep{s.Step(-1, ""), s.Step(0, "")} {
			if !slices.Equal(got.Kinds, tc.want) {
				t.Errorf("JUNCTURE_BENCH_SOAK_KINDS=%q: kinds %v, want %v", tc.env, got.Kinds, tc.want)
			}
		}
	}
}
