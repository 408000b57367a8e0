package secrets

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// probeAccount is how Probe names its entries: "probe-" and 16 hex
// digits. Only entries so named are ever removed as leftovers.
var probeAccount = regexp.MustCompile(`^probe-[0-9a-f]{16}$`)

// probeLeftoverAge: a noted probe entry older than this is a leftover of
// an earlier run, not the probe under way of another instance (which gives
// up after keychainProbeTimeout).
const probeLeftoverAge = 10 * time.Minute

// probeDeleteWaits are the pauses before each further attempt to delete
// a probe's entry when deleting it failed (a keychain still busy).
var probeDeleteWaits = []time.Duration{100 * time.Millisecond, time.Second}

// maxLeftoversPerStart bounds the leftovers one start removes; it reads
// at most maxNotesReadPerStart names to find them (names it skips, other
// files or young notes, must not hide older leftovers behind them).
const (
	maxLeftoversPerStart = 64
	maxNotesReadPerStart = 4096
)

// Probe writes, reads back and deletes a test entry. Its entry is removed
// however late the keychain answers: the delete follows the Set, whatever
// the Set or the Get answered (a Set reported failed may have written), and
// is tried again when it fails. Until removed, the entry is noted in the
// keys file's directory (probeNotes), so a later start removes what a run
// that exited mid-probe left behind; a probe that works also removes such
// leftovers, in the background.
func Probe(s Store) error {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	account, want := "probe-"+hex.EncodeToString(b), hex.EncodeToString(b)
	notes := probeNotes{dir: probeJournalDir()}
	var deleteErr error
	return withinProbeTimeout(func() error {
		notes.add(account)
		err := s.Set(account, want)
		if err == nil {
			var got string
			if got, err = s.Get(account); err == nil && got != want {
				err = errors.New("it returned another value than was stored")
			}
		}
		if deleteErr = s.Delete(account); deleteErr == nil {
			notes.done(account)
		}
		return err
	}, func(probeErr error) {
		// The retries and the leftovers are the background's: the answer
		// is already given, the start-up does not wait on them.
		for _, wait := range probeDeleteWaits {
			if deleteErr == nil {
				break
			}
			time.Sleep(wait)
			if deleteErr = s.Delete(account); deleteErr == nil {
				notes.done(account)
			}
		}
		if probeErr == nil {
			notes.removeLeftovers(s)
		}
	})
}

// probeJournalDir is where probe entries not yet removed are noted: next
// to the keys file ("" when there is no configuration directory).
func probeJournalDir() string {
	p, err := FilePath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "keychain-probes")
}

// probeNotes notes each probe entry written and not yet removed, one empty
// file named as the entry: files, not one list, so two instances never
// rewrite each other's notes. Notes are a help for a later start: one that
// cannot be written leaves the entry to this run's delete alone.
type probeNotes struct{ dir string }

func (n probeNotes) add(account string) {
	if n.dir == "" || os.MkdirAll(n.dir, 0o700) != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(n.dir, account), nil, 0o600)
}

func (n probeNotes) done(account string) {
	if n.dir != "" {
		_ = os.Remove(filepath.Join(n.dir, account))
	}
}

// removeLeftovers deletes from s the probe entries noted by an earlier
// run: only regular files named as Probe names its entries, older than
// probeLeftoverAge, at most maxLeftoversPerStart of them; a note goes when
// its entry is gone.
func (n probeNotes) removeLeftovers(s Store) {
	if n.dir == "" {
		return
	}
	d, err := os.Open(n.dir)
	if err != nil {
		return
	}
	entries, _ := d.ReadDir(maxNotesReadPerStart)
	d.Close()
	removed := 0
	for _, e := range entries {
		if removed == maxLeftoversPerStart {
			break
		}
		if !e.Type().IsRegular() || !probeAccount.MatchString(e.Name()) {
			continue
		}
		// A note dated ahead of the clock (the clock set back) is not young.
		info, err := e.Info()
		if err != nil {
			continue
		}
		if age := time.Since(info.ModTime()); age >= 0 && age < probeLeftoverAge {
			continue
		}
		removed++
		if s.Delete(e.Name()) == nil {
			n.done(e.Name())
		}
	}
}
