package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// lateKeychain answers Set only when released (a password prompt answered
// after the probe gave up), then stores the entry and returns setErr (a
// reply lost after the entry was made). Its first failDeletes Deletes fail
// (a keychain still busy).
type lateKeychain struct {
	mu          sync.Mutex
	entries     map[string]string
	release     chan struct{}
	answered    chan struct{} // closed when a late Set has stored its entry
	setErr      error
	failDeletes int
	deletes     int
}

func (k *lateKeychain) Get(account string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.entries[account]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *lateKeychain) Set(account, secret string) error {
	if k.release != nil {
		<-k.release
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.entries[account] = secret
	if k.answered != nil {
		close(k.answered)
	}
	return k.setErr
}

func (k *lateKeychain) Delete(account string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.deletes++
	if k.deletes <= k.failDeletes {
		return errors.New("the keychain is busy")
	}
	delete(k.entries, account)
	return nil
}

func (k *lateKeychain) accounts() map[string]string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := map[string]string{}
	for a, v := range k.entries {
		out[a] = v
	}
	return out
}

// eventually polls cond for up to 5 s (the probe's late part runs in the
// background).
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// shortProbeTimeout makes the probe give up after 50 ms, with the keys
// file's directory (where the probe notes its entry) in a temporary
// configuration directory.
func shortProbeTimeout(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	old := keychainProbeTimeout
	keychainProbeTimeout = 50 * time.Millisecond
	t.Cleanup(func() { keychainProbeTimeout = old })
}

// TestALateProbeRemovesWhatItWrote: a keychain that answers the probe's
// Set after the probe gave up (start-up went on with the file) still has
// the probe's entry removed when it answers, however it answers: Set
// reporting an error after writing, a Delete that fails at first.
func TestALateProbeRemovesWhatItWrote(t *testing.T) {
	for _, tc := range []struct {
		name        string
		setErr      error
		failDeletes int
	}{
		{"set answers late", nil, 0},
		{"set answers late with an error, having written", errors.New("no reply"), 0},
		{"the first deletes fail", nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shortProbeTimeout(t)
			kc := &lateKeychain{entries: map[string]string{}, release: make(chan struct{}), answered: make(chan struct{}), setErr: tc.setErr, failDeletes: tc.failDeletes}
			if err := Probe(kc); err == nil {
				t.Fatal("a probe whose Set did not answer in time succeeded")
			}
			close(kc.release)
			<-kc.answered
			if !eventually(func() bool { return len(kc.accounts()) == 0 }) {
				t.Fatalf("the late probe left its entry in the keychain: %v", kc.accounts())
			}
			if !eventually(func() bool { n, _ := os.ReadDir(probeJournalDir()); return len(n) == 0 }) {
				t.Errorf("the probe's note of its entry is still there after the entry was removed")
			}
		})
	}
}

// TestProbeEntriesLeftByAnEarlierRunAreRemoved: an earlier run that exited
// mid-probe (or whose deletes all failed) left a "probe-" entry, noted in
// the keys file's directory. The next start whose probe works removes it —
// only entries noted there, named as the probe names them, old enough not
// to be another instance's probe under way — and their notes.
func TestProbeEntriesLeftByAnEarlierRunAreRemoved(t *testing.T) {
	shortProbeTimeout(t)
	const leftover, fresh = "probe-0123456789abcdef", "probe-fedcba9876543210"
	kc := &lateKeychain{entries: map[string]string{
		leftover:                  "x",
		fresh:                     "y",
		"probe-notours":           "z",
		"apiKey@0123456789abcdef": "sk-live-1",
		"probe-aaaaaaaaaaaaaaaa":  "not noted: not ours to remove",
	}}
	dir := probeJournalDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	// A note dated ahead of the clock (set back since) is a leftover too.
	const ahead = "probe-1111111111111111"
	kc.entries[ahead] = "w"
	if p := filepath.Join(dir, ahead); os.WriteFile(p, nil, 0o600) != nil || os.Chtimes(p, time.Now().Add(48*time.Hour), time.Now().Add(48*time.Hour)) != nil {
		t.Fatal("writing the note dated ahead")
	}
	for _, name := range []string{leftover, fresh, "probe-notours", "apiKey@0123456789abcdef"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if name != fresh {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Probe(kc); err != nil {
		t.Fatalf("Probe: %v", err)
	}
	if !eventually(func() bool { _, ok := kc.accounts()[ahead]; return !ok }) {
		t.Fatalf("the entry of a note dated ahead of the clock is still there: %v", kc.accounts())
	}
	if !eventually(func() bool { _, ok := kc.accounts()[leftover]; return !ok }) {
		t.Fatalf("the entry left by an earlier run is still there: %v", kc.accounts())
	}
	if _, err := os.Stat(filepath.Join(dir, leftover)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the note of the removed entry is still there (%v)", err)
	}
	got := kc.accounts()
	for _, keep := range []string{fresh, "probe-notours", "apiKey@0123456789abcdef", "probe-aaaaaaaaaaaaaaaa"} {
		if _, ok := got[keep]; !ok {
			t.Errorf("%s was removed; only an old noted probe entry may be", keep)
		}
	}
	if len(got) != 4 {
		t.Errorf("entries after the probe: %v", got)
	}
}
