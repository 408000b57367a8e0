//go:build unix

package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// sweepKeychain records every Delete; it holds entries like a keychain.
type sweepKeychain struct {
	mu      sync.Mutex
	entries map[string]string
	deleted []string
}

func (k *sweepKeychain) Get(a string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if v, ok := k.entries[a]; ok {
		return v, nil
	}
	return "", ErrNotFound
}
func (k *sweepKeychain) Set(a, v string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.entries[a] = v
	return nil
}
func (k *sweepKeychain) Delete(a string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.deleted = append(k.deleted, a)
	delete(k.entries, a) // a missing entry deletes fine, as Store says
	return nil
}

func oldNote(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

func sweepDir(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := probeJournalDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// within fails the test clearly when sweep takes longer than budget.
func within(t *testing.T, budget time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { f(); close(done) }()
	select {
	case <-done:
		t.Logf("%s took %s", what, time.Since(start))
	case <-time.After(budget):
		t.Fatalf("%s did not finish within %s (hang?)", what, budget)
	}
}

// TestSweepSkipsEntriesThatAreNotRegularNotes: names that match the
// pattern but are a symlink (to an old regular file elsewhere), a
// directory or a FIFO are neither deleted from the keychain nor removed,
// and the sweep does not block opening the FIFO.
func TestSweepSkipsEntriesThatAreNotRegularNotes(t *testing.T) {
	dir := sweepDir(t)
	elsewhere := t.TempDir()
	target := oldNote(t, elsewhere, "probe-aaaaaaaaaaaaaaaa")
	if err := os.Symlink(target, filepath.Join(dir, "probe-aaaaaaaaaaaaaaaa")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "probe-bbbbbbbbbbbbbbbb"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "probe-cccccccccccccccc"), 0o600); err != nil {
		t.Fatal(err)
	}
	kc := &sweepKeychain{entries: map[string]string{
		"probe-aaaaaaaaaaaaaaaa": "a", "probe-bbbbbbbbbbbbbbbb": "b", "probe-cccccccccccccccc": "c",
		"vault1/apiKey": "sk-live",
	}}
	within(t, 5*time.Second, "the sweep", func() { probeNotes{dir: dir}.removeLeftovers(kc) })
	if len(kc.deleted) != 0 {
		t.Errorf("deleted %v; none of these is a regular note", kc.deleted)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the symlink's target elsewhere was removed: %v", err)
	}
	for _, n := range []string{"probe-aaaaaaaaaaaaaaaa", "probe-bbbbbbbbbbbbbbbb", "probe-cccccccccccccccc"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}

// TestSweepOfAHugeDirectoryIsBounded: 100k notes (every one an old
// leftover's) — one sweep deletes at most maxLeftoversPerStart, only probe
// names, quickly.
func TestSweepOfAHugeDirectoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 100k files")
	}
	dir := sweepDir(t)
	old := time.Now().Add(-time.Hour)
	for i := 0; i < 100_000; i++ {
		name := fmt.Sprintf("probe-%016x", i)
		if i%2 == 1 {
			name = fmt.Sprintf("junk-%d", i) // names that are not probes
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	kc := &sweepKeychain{entries: map[string]string{"vault1/apiKey": "sk-live"}}
	within(t, 10*time.Second, "sweeping 100k notes", func() { probeNotes{dir: dir}.removeLeftovers(kc) })
	if len(kc.deleted) > maxLeftoversPerStart {
		t.Errorf("one sweep deleted %d entries, more than %d", len(kc.deleted), maxLeftoversPerStart)
	}
	for _, a := range kc.deleted {
		if !probeAccount.MatchString(a) {
			t.Errorf("deleted %q, not a probe name", a)
		}
	}
	if _, ok := kc.entries["vault1/apiKey"]; !ok {
		t.Error("a real key was deleted")
	}
}

// TestSweepThroughASymlinkedDirectoryDeletesOnlyProbeNames: the notes
// directory replaced by a symlink to a directory of other files (a real
// key's name among them): only probe-named entries may be deleted.
func TestSweepThroughASymlinkedDirectoryDeletesOnlyProbeNames(t *testing.T) {
	dir := sweepDir(t)
	elsewhere := t.TempDir()
	for _, n := range []string{"vault1", "apiKey", "probe-0123456789abcdeF", "probe-0123456789abcde"} {
		oldNote(t, elsewhere, n)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	kc := &sweepKeychain{entries: map[string]string{"vault1/apiKey": "sk-live", "apiKey": "x"}}
	within(t, 5*time.Second, "the sweep", func() { probeNotes{dir: dir}.removeLeftovers(kc) })
	if len(kc.deleted) != 0 {
		t.Errorf("deleted %v through the symlinked directory", kc.deleted)
	}
}

// TestTwoSweepsAtOnce: two instances sweeping the same notes (each
// leftover deleted twice) leave no note and delete only leftovers; a note
// whose entry is already gone (a run killed between Delete and removing
// the note) is cleared too.
func TestTwoSweepsAtOnce(t *testing.T) {
	dir := sweepDir(t)
	kc := &sweepKeychain{entries: map[string]string{"vault1/apiKey": "sk-live"}}
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("probe-%016x", i)
		oldNote(t, dir, name)
		if i%4 != 0 { // every fourth: entry gone already, note left by a kill
			kc.entries[name] = "p"
		}
	}
	within(t, 5*time.Second, "two sweeps", func() {
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); probeNotes{dir: dir}.removeLeftovers(kc) }()
		}
		wg.Wait()
	})
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d notes left after two sweeps", len(left))
	}
	if len(kc.entries) != 1 || kc.entries["vault1/apiKey"] != "sk-live" {
		t.Errorf("entries after the sweeps: %v", kc.entries)
	}
}
