package secrets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/juncture-app/juncture/internal/plainfile"
	"github.com/juncture-app/juncture/store"
)

// Rows is the settings table as the vault needs it (*store.DB has it).
type Rows interface {
	Settings(ctx context.Context) (map[string]string, error)
	SaveSettings(ctx context.Context, m map[string]string) error
	Path() string
}

// Open names the database's vault over st and, when writable, moves the
// keys still in the settings rows into st, rebuilds the file without them
// and scrubs its migration backups (<db>.pre-v*.bak).
func Open(ctx context.Context, db Rows, st Store, status KeyStorage, writable bool, log *slog.Logger) (*Vault, error) {
	v := NewVault(st, status)
	if status.Kind == "file" {
		log.Info("keys are stored in a file", "path", status.Path, "why", status.Detail)
	}
	saved, err := db.Settings(ctx)
	if err != nil {
		if writable {
			return nil, err
		}
		// A read-only copy of a damaged database: the damage can be the
		// settings table itself. The copy still opens, for its chats;
		// without the vault's id no saved key is found, and none is written.
		log.Warn("the read-only copy's settings cannot be read; its saved keys are not used", "err", err)
		return v, nil
	}
	v.id = saved[KeyVaultID]
	if !writable {
		return v, nil
	}
	if v.id == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		v.id = hex.EncodeToString(b)
		if err := db.SaveSettings(ctx, map[string]string{KeyVaultID: v.id}); err != nil {
			return nil, err
		}
	}
	path := db.Path()
	// A key that cannot move now (the storage refuses it) stays where it
	// is until the next start: the app runs, and says so in the log.
	if err := v.moveKeys(ctx, db, path, saved, log); err != nil {
		log.Warn("keys stay in the database until the next start", "err", err)
	}
	if now, err := db.Settings(ctx); err == nil {
		scrubBackups(ctx, path, v.knownSecrets(now), log)
	}
	return v, nil
}

// moveKeys moves the keys still in the settings rows to the vault and
// rebuilds the file without them.
func (v *Vault) moveKeys(ctx context.Context, db Rows, path string, saved map[string]string, log *slog.Logger) error {
	if HasSecrets(saved) {
		moved := map[string]string{KeyScrubDB: "pending"}
		for k, val := range saved {
			// Only values in clear move: "" is a key already moved.
			if (IsSecretSetting(k) && val != "") || k == KeyEndpoints {
				moved[k] = val
			}
		}
		rows, err := StripRows(moved, v, true)
		if err != nil {
			return err
		}
		if err := db.SaveSettings(ctx, rows); err != nil {
			return err
		}
		saved[KeyScrubDB] = "pending"
		log.Info("keys moved out of the database", "storage", v.status.Detail)
	}
	if saved[KeyScrubDB] == "pending" {
		if err := store.RebuildFile(ctx, path); err != nil {
			return fmt.Errorf("rebuilding the database without its keys: %w", err)
		}
		if err := db.SaveSettings(ctx, map[string]string{KeyScrubDB: ""}); err != nil {
			return err
		}
	}
	return nil
}

// scrubBackups removes the keys of every migration backup of the
// database. A backup is deleted only when it is known to hold a key that
// cannot be rewritten: its rows hold one and rewriting them failed, or it
// is not a readable database and its bytes hold a key this vault knows. A
// busy backup, or an unreadable one holding no known key, is kept (and
// tried again at the next start).
func scrubBackups(ctx context.Context, dbPath string, known []string, log *slog.Logger) {
	for _, b := range store.Backups(dbPath) {
		needed, err := scrubBackup(ctx, b)
		switch {
		case err == nil:
			continue
		case errors.Is(err, store.ErrFileBusy):
			log.Warn("a migration backup is busy; its keys are cleared at the next start", "path", b, "err", err)
			continue
		case !needed:
			holds, rerr := fileHolds(b, known)
			if rerr != nil {
				// Not searched whole (too large, unreadable): it may hold a
				// key, so it is not "holds none" — but it is kept, not
				// deleted. Deleting is final and decided on a guess about a
				// file that is not a database we can read (someone's copy, a
				// damaged history); keeping leaves what was already on disk,
				// and the warning names the file for the person to decide.
				log.Warn("a migration backup could not be searched whole for keys; kept, and it may hold one: delete it if it is not needed", "path", b, "err", rerr)
				continue
			}
			if !holds {
				log.Warn("a migration backup could not be read; kept (it holds none of the keys stored now)", "path", b, "err", err)
				continue
			}
		}
		log.Warn("a migration backup holds a key and could not be cleared of it; deleting it", "path", b, "err", err)
		for _, p := range []string{b, b + "-journal", b + "-wal", b + "-shm"} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				log.Error("deleting a migration backup", "path", p, "err", err)
			}
		}
	}
}

// scrubBackup rewrites a backup's settings rows without keys and rebuilds
// the file; one without keys is left untouched. needed: its rows were read
// and hold a key.
func scrubBackup(ctx context.Context, path string) (needed bool, err error) {
	var stripErr error
	needed, err = store.ScrubSettings(ctx, path, func(m map[string]string) (map[string]string, bool) {
		if !HasSecrets(m) {
			return nil, false
		}
		rows, err := StripRows(m, nil, false)
		if err != nil {
			stripErr = err
			return nil, true
		}
		return rows, true
	})
	if err == nil {
		err = stripErr
	}
	return needed, err
}

// backupFile is what fileHolds reads: an open backup and its size.
type backupFile interface {
	io.ReadCloser
	Stat() (os.FileInfo, error)
}

// openPlainBackup opens a regular file only: a FIFO named like a backup is
// refused, not waited on.
func openPlainBackup(path string) (backupFile, error) { return plainfile.Open(path) }

// openBackup is openPlainBackup; tests replace it.
var openBackup = openPlainBackup

// maxSearchedBytes caps the data fileHolds searches in one backup: 1 GiB,
// more than a history's database holds (a var: tests lower it). Holes of
// a sparse file are not data where they can be skipped (Linux); elsewhere
// they are read as zeros and count. A start-up so reads at most this much.
var maxSearchedBytes int64 = 1 << 30

// errBackupTooLarge: the backup holds more data than maxSearchedBytes and
// no key was found in what was searched. It is not "holds no key": the
// caller keeps the file and says it could not be searched whole.
var errBackupTooLarge = errors.New("it holds more data than a history could; searched only in part")

// fileHolds reports whether the file's bytes contain any of secrets,
// reading it in 1 MiB chunks (backups can be large), up to the size it had
// when opened: a file that another process keeps growing would otherwise be
// read for as long as it grows, and a start-up waits on it. Only data is
// read: the holes of a sparse file (a `truncate -s 1T` file named like a
// backup) are skipped where the system says where they are, and searched
// as the zeros they read as. At most maxSearchedBytes are read; a file
// with more, where no key was found, is errBackupTooLarge.
func fileHolds(path string, secrets []string) (bool, error) {
	longest := 0
	for _, s := range secrets {
		longest = max(longest, len(s))
	}
	if longest == 0 {
		return false, nil
	}
	f, err := openBackup(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("reading the size of %s: %w", path, err)
	}
	size := info.Size()
	s := &bytesSearch{secrets: secrets, longest: longest, buf: make([]byte, 0, 1<<20+longest)}
	chunk := make([]byte, 1<<20)
	var off, searched int64
	for off < size {
		start, end, err := nextData(f, off, size)
		if err != nil {
			return false, fmt.Errorf("finding the data of %s: %w", path, err)
		}
		if start > off && s.zeros(start-off) {
			return true, nil
		}
		if start >= size {
			return false, nil
		}
		if searched >= maxSearchedBytes {
			return false, fmt.Errorf("searching %s for keys: %w", path, errBackupTooLarge)
		}
		end = min(end, start+maxSearchedBytes-searched)
		for off = start; off < end; {
			n, err := f.Read(chunk[:min(int64(len(chunk)), end-off)])
			off += int64(n)
			searched += int64(n)
			if s.feed(chunk[:n]) {
				return true, nil
			}
			if errors.Is(err, io.EOF) {
				return false, nil // shrunk since it was opened: searched whole
			}
			if err != nil {
				return false, fmt.Errorf("reading %s: %w", path, err)
			}
		}
	}
	return false, nil
}

// bytesSearch looks for secrets in bytes fed in order, keeping the tail of
// what it was fed: a secret may straddle two chunks.
type bytesSearch struct {
	secrets []string
	longest int
	buf     []byte
}

// feed reports whether a secret ends in p.
func (s *bytesSearch) feed(p []byte) bool {
	s.buf = append(s.buf, p...)
	for _, sec := range s.secrets {
		if sec != "" && bytes.Contains(s.buf, []byte(sec)) {
			return true
		}
	}
	if keep := s.longest - 1; len(s.buf) > keep {
		s.buf = append(s.buf[:0], s.buf[len(s.buf)-keep:]...)
	}
	return false
}

// zeros feeds a hole of n zero bytes: no more than the longest secret of
// them can be part of one, so a hole of a terabyte costs that much.
func (s *bytesSearch) zeros(n int64) bool {
	for range min(n, int64(s.longest)) {
		s.buf = append(s.buf, 0)
	}
	return s.feed(nil)
}

// knownSecrets are the keys this vault holds for the settings rows saved
// (what a backup that cannot be read is searched for).
func (v *Vault) knownSecrets(saved map[string]string) []string {
	var out []string
	add := func(name string) {
		if s, err := v.Get(name); err == nil && s != "" {
			out = append(out, s)
		}
	}
	add(SettingAccount("apiKey"))
	for k := range saved {
		if IsSecretSetting(k) && k != "apiKey" {
			add(SettingAccount(k))
		}
	}
	for _, ref := range EndpointRefs(saved[KeyEndpoints]) {
		if ref != "" {
			add(ref)
		}
	}
	return out
}
