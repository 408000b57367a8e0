// Package datafolder opens Juncture's data folder and its history database.
//
// The folder is made private (0700, every file 0600, the configuration
// folders too), read-only copies killed sessions left are removed, and the
// database is opened and recovered after a crash, or, when asked, a
// damaged one opened as a read-only copy. A damaged or newer database is
// reported, never overwritten. RoomToSend is the disk room a message needs.
package datafolder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/juncture-app/juncture/app/secrets"
	"github.com/juncture-app/juncture/store"
)

// DatabasePath is where the database of a data dir lives.
func DatabasePath(dataDir string) string { return filepath.Join(dataDir, "juncture.db") }

// Options say which folder to open, and how.
type Options struct {
	Dir string // holds juncture.db
	// MCPConfigPath is the MCP servers' file when a test moved it: its
	// folder is made private too.
	MCPConfigPath string
	// ReadOnlyCopy opens a copy of a damaged database for browsing.
	ReadOnlyCopy bool
	Logger       *slog.Logger
}

// Open opens o.Dir's database, recovering after the last run; readOnly is
// the copy's path when a damaged database was opened as a read-only copy.
func Open(ctx context.Context, o Options) (db *store.DB, readOnly string, err error) {
	// The history is private: the folder 0700 even if it existed 0755,
	// every file 0600 (store.Open); so is the configuration.
	if err := store.PrivateDir(o.Dir); err != nil {
		return nil, "", fmt.Errorf("creating the data folder: %w", err)
	}
	if err := secrets.PrivateConfig(configDirs(o.Dir, o.MCPConfigPath)); err != nil {
		o.Logger.Warn("could not make the configuration folder private", "err", err)
	}
	// Read-only copies left by a session that was killed hold a whole
	// history: they go now (those of running sessions stay).
	if n, err := store.RemoveStaleCopies(); err != nil || n > 0 {
		o.Logger.Info("removed stale read-only copies", "count", n, "err", err)
	}
	path := DatabasePath(o.Dir)
	db, err = store.Open(ctx, path)
	var corrupt *store.CorruptError
	if errors.As(err, &corrupt) && o.ReadOnlyCopy {
		db, readOnly, err = store.OpenReadOnlyCopy(ctx, path)
	}
	if err != nil {
		return nil, "", fmt.Errorf("opening the history database: %w", err)
	}
	if readOnly == "" {
		rep, err := db.Recover(ctx)
		if err != nil {
			db.Close()
			return nil, "", fmt.Errorf("recovering after the last run: %w", err)
		}
		o.Logger.Info("store ready", "path", path, "recovery", fmt.Sprintf("%+v", rep))
	}
	return db, readOnly, nil
}

// configDirs are the configuration folders the app reads: the default
// one ($XDG_CONFIG_HOME/juncture) and the MCP file's, when a test moved it.
func configDirs(dataDir, mcpConfigPath string) []string {
	var dirs []string
	if d, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(d, "juncture"))
	}
	if p := mcpConfigPath; p != "" && filepath.Dir(p) != dataDir {
		dirs = append(dirs, filepath.Dir(p))
	}
	return dirs
}
