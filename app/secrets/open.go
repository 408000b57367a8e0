package secrets

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

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
func Open(ctx context.Context, db Rows, st Store, status Storage, writable bool, log *slog.Logger) (*Vault, error) {
	v := NewVault(st, status)
	if status.Kind == "file" {
		log.Info("keys are stored in a file", "path", status.Path, "why", status.Detail)
	}
	saved, err := db.Settings(ctx)
	if err != nil {
		return nil, err
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
	scrubBackups(ctx, path, log)
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
// database; one that cannot be opened and rewritten is deleted.
func scrubBackups(ctx context.Context, dbPath string, log *slog.Logger) {
	backups, _ := filepath.Glob(globEscape(dbPath) + ".pre-v*.bak")
	for _, b := range backups {
		if err := scrubBackup(ctx, b); err != nil {
			log.Warn("a migration backup could not be cleared of its keys; deleting it", "path", b, "err", err)
			for _, p := range []string{b, b + "-journal", b + "-wal", b + "-shm"} {
				if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
					log.Error("deleting a migration backup", "path", p, "err", err)
				}
			}
		}
	}
}

func globEscape(p string) string {
	return strings.NewReplacer("[", "[[]", "*", "[*]", "?", "[?]").Replace(p)
}

// scrubBackup rewrites a backup's settings rows without keys and rebuilds
// the file; one without keys is left untouched.
func scrubBackup(ctx context.Context, path string) error {
	var stripErr error
	err := store.ScrubSettings(ctx, path, func(m map[string]string) (map[string]string, bool) {
		if !HasSecrets(m) {
			return nil, false
		}
		rows, err := StripRows(m, nil, false)
		if err != nil {
			stripErr = err
			return nil, false
		}
		return rows, true
	})
	if err != nil {
		return err
	}
	return stripErr
}
