//go:build unix

package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// deleteRecorder is a Store that records every Delete (the sweep only deletes).
type deleteRecorder struct {
	mu      sync.Mutex
	deleted []string
}

func (r *deleteRecorder) Get(string) (string, error) { return "", ErrNotFound }
func (r *deleteRecorder) Set(string, string) error   { return nil }
func (r *deleteRecorder) Delete(account string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deleted = append(r.deleted, account)
	return nil
}

func (r *deleteRecorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.deleted...)
}

// writeOldNote writes an empty note dated an hour back.
func writeOldNote(t testing.TB, dir, name string) {
	t.Helper()
	p := filepath.Join(dir, name)
	old := time.Now().Add(-time.Hour)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// sweepBudget fails the test when one sweep takes longer than d or grows
// the heap by more than maxHeap (the notes directory is the outside here).
func sweepBudget(t *testing.T, d time.Duration, maxHeap uint64, sweep func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	sweep()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if took > d {
		t.Errorf("the sweep took %v, budget %v", took, d)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > maxHeap {
		t.Errorf("the sweep allocated %d bytes, budget %d", grew, maxHeap)
	}
}

// A notes directory an attacker (or a bug) filled: many names, and names
// that match a probe's but are not regular files. The sweep removes at
// most maxLeftoversPerStart entries, reads at most maxNotesReadPerStart
// names, deletes only probe-named regular files, and stays within its budget.
func TestLeftoverSweepOnAHostileNotesDirectory(t *testing.T) {
	cases := []struct {
		name    string
		fill    func(t *testing.T, dir string)
		maxDels int
		never   []string
	}{
		{
			name: "20,000 old probe notes",
			fill: func(t *testing.T, dir string) {
				for i := range 20000 {
					writeOldNote(t, dir, fmt.Sprintf("probe-%016x", i))
				}
			},
			maxDels: maxLeftoversPerStart,
		},
		{
			name: "probe names that are a directory, a symlink and a FIFO, and real keys",
			fill: func(t *testing.T, dir string) {
				if err := os.Mkdir(filepath.Join(dir, "probe-000000000000000d"), 0o700); err != nil {
					t.Fatal(err)
				}
				target := filepath.Join(t.TempDir(), "elsewhere")
				writeOldNote(t, filepath.Dir(target), "elsewhere")
				if err := os.Symlink(target, filepath.Join(dir, "probe-000000000000000e")); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "probe-000000000000000f"), 0o600); err != nil {
					t.Fatal(err)
				}
				for _, key := range []string{"apiKey@0123456789abcdef", "probe-", "probe-0123", "probe-0123456789ABCDEF", "probe-0123456789abcdef0", "probe-0123456789abcdefx"} {
					writeOldNote(t, dir, key)
				}
			},
			maxDels: 0,
			never:   []string{"probe-000000000000000d", "probe-000000000000000e", "probe-000000000000000f", "apiKey@0123456789abcdef"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.fill(t, dir)
			rec := &deleteRecorder{}
			sweepBudget(t, 5*time.Second, 16<<20, func() { probeNotes{dir: dir}.removeLeftovers(rec) })
			got := rec.all()
			if len(got) > tc.maxDels {
				t.Errorf("%d entries deleted, at most %d", len(got), tc.maxDels)
			}
			if tc.maxDels > 0 && len(got) != tc.maxDels {
				t.Errorf("%d entries deleted, want %d (old leftovers were there)", len(got), tc.maxDels)
			}
			for _, d := range got {
				if !probeAccount.MatchString(d) {
					t.Errorf("deleted %q, not a probe's entry", d)
				}
				for _, n := range tc.never {
					if d == n {
						t.Errorf("deleted %q, which is not a regular note", d)
					}
				}
			}
		})
	}
}

// Two instances starting at once sweep the same notes: each entry may be
// deleted twice (Delete succeeds on nothing), but nothing else is, no
// sweep fails, and every leftover's note is gone afterwards.
func TestTwoLeftoverSweepsAtOnce(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		for i := range 40 {
			writeOldNote(t, dir, fmt.Sprintf("probe-%016x", i))
		}
		rec := &deleteRecorder{}
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { probeNotes{dir: dir}.removeLeftovers(rec) })
		}
		wg.Wait()
		got := rec.all()
		if len(got) < 40 || len(got) > 80 {
			t.Fatalf("%d deletes for 40 leftovers by two sweeps", len(got))
		}
		left, _ := os.ReadDir(dir)
		if len(left) != 0 {
			t.Fatalf("%d notes left after both sweeps", len(left))
		}
	}
}

// FuzzLeftoverNote: any name and any date a note can have. The sweep
// deletes only a probe's entry, only when its note is a regular file not
// younger than probeLeftoverAge, and it returns within its budget.
func FuzzLeftoverNote(f *testing.F) {
	f.Add("probe-0123456789abcdef", int64(-3600))
	f.Add("probe-0123456789abcdef", int64(60))
	f.Add("apiKey@0123456789abcdef", int64(-3600))
	f.Add("probe-0123456789abcdef", int64(48*3600))
	f.Add("probe-\n123456789abcdef", int64(-3600))
	f.Fuzz(func(t *testing.T, name string, offset int64) {
		if name == "" || name == "." || name == ".." || len(name) > 200 || filepath.Base(name) != name {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		if os.WriteFile(p, nil, 0o600) != nil {
			return // a name this file system refuses
		}
		at := time.Now().Add(time.Duration(offset%(1<<32)) * time.Second)
		if os.Chtimes(p, at, at) != nil {
			return
		}
		rec := &deleteRecorder{}
		start := time.Now()
		probeNotes{dir: dir}.removeLeftovers(rec)
		if took := time.Since(start); took > time.Second {
			t.Fatalf("one note took %v", took)
		}
		got := rec.all()
		age := time.Since(at)
		want := probeAccount.MatchString(name) && !(age >= 0 && age < probeLeftoverAge)
		if want != (len(got) == 1) || len(got) > 1 || (len(got) == 1 && got[0] != name) {
			t.Fatalf("note %q aged %v: deleted %q, want a delete: %v", name, age, got, want)
		}
	})
}
