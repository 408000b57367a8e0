package attach

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostileCorpus returns the files of testdata/hostile by name (NAME.gz
// files decompressed, under NAME).
func hostileCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "hostile", "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no hostile corpus: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		if n, ok := strings.CutSuffix(name, ".gz"); ok {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
			name = n
		}
		out[name] = data
	}
	return out
}

// harnessDeadline is how long the tests wait for one call before calling it
// hung: the child's wall clock plus a margin for a loaded machine.
const harnessDeadline = ChildWall*raceScale + 10*time.Second // the app's wall budget, whatever the tests lower

// within runs f and fails the test if it has not returned by
// harnessDeadline (the goroutine is left behind: the test has failed).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(harnessDeadline):
		t.Fatalf("%s: no answer after %s", what, harnessDeadline)
	}
}

// Issue 19, defect 1: a PDF whose page tree contains itself, claims 2^62
// pages, has a page that is its own parent, inflates to 300 MiB or lists
// one page 20,000 times is refused with a reason within the child's
// budget; it never hangs the send.
func TestHostilePDFsAreRefusedWithinBudget(t *testing.T) {
	for name, data := range hostileCorpus(t) {
		if !strings.HasSuffix(name, ".pdf") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // maxChildren at a time
			var err error
			within(t, name, func() { _, err = Prepare(context.Background(), []Input{{Name: name, Data: data}}, true) })
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(ae.Reason, "PDF") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// Issue 19, defect 2: an image whose decode would pass DecodeBudget is
// refused at the door, before anything is decoded or stored: the WebP
// whose VP8 frame is larger than its VP8X canvas, a legal 100 MP 16-bit
// PNG, and images claiming absurd sizes.
func TestHostileImagesAreRefusedAtTheDoor(t *testing.T) {
	for name, data := range hostileCorpus(t) {
		if strings.HasSuffix(name, ".pdf") || name == "gif-frame-outside-screen.gif" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var err error
			within(t, name, func() { _, err = Prepare(context.Background(), []Input{{Name: name, Data: data}}, true) })
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(ae.Reason, "too large to decode") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// treePeak is the budget for the whole process tree: this process's peak
// resident memory plus the child's.
const treePeak = 600 << 20

// The whole hostile corpus through the real child, images forced past the
// header check (so the child's own limits are what holds): every call
// ends within its wall budget and the process tree's peak resident memory
// (this process's VmHWM plus the child's rusage Maxrss) stays under
// 600 MB. JUNCTURE_HOSTILE_FIGURES=1 runs it with the app's budgets and
// prints the figures.
func TestHostileCorpusStaysInBudget(t *testing.T) {
	corpus := hostileCorpus(t)
	for name, data := range corpus {
		job := "pdf"
		if !strings.HasSuffix(name, ".pdf") {
			job = "image:image/x"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // maxChildren at a time
			var st childStats
			var err error
			start := time.Now()
			within(t, name, func() { _, st, err = extract(t.Context(), job, data) })
			wall := time.Since(start)
			self := selfPeak()
			if os.Getenv("JUNCTURE_HOSTILE_FIGURES") == "1" {
				fmt.Printf("FIGURE | %s | %.1f s | child %d MB | tree %d MB | %v |\n", name, wall.Seconds(), st.MaxRSS>>20, (self+st.MaxRSS)>>20, err)
			}
			if wall > wallBudget+5*time.Second {
				t.Errorf("took %s; the wall budget is %s", wall, wallBudget)
			}
			if self+st.MaxRSS > treePeak {
				t.Errorf("process tree peak %d MB (this process %d MB, child %d MB); the budget is %d MB", (self+st.MaxRSS)>>20, self>>20, st.MaxRSS>>20, treePeak>>20)
			}
		})
	}
}

// selfPeak is this process's peak resident memory (VmHWM), 0 when unknown.
func selfPeak() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
