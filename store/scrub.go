package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/juncture-app/juncture/internal/plainfile"
)

// Scrubbing: rewriting settings rows of a database file that is not open
// through a DB (a migration backup), and rebuilding a file so no freed page
// keeps old rows. The secrets package uses them to move keys out of old
// databases; the store knows nothing of which rows are keys.

// ErrFileBusy is wrapped by ScrubSettings when another connection (a
// second process) holds the file: nothing was changed, try again later.
var ErrFileBusy = errors.New("the database file is busy")

// ErrNotADatabase is wrapped by ScrubSettings when the file is not a
// readable SQLite database (not one at all, or damaged).
var ErrNotADatabase = errors.New("not a readable database")

// scrubBusyTimeout is how long ScrubSettings waits for a busy file.
const scrubBusyTimeout = "_pragma=busy_timeout(2000)"

// ScrubSettings rewrites the settings rows of the database file at path:
// scrub gets every row and returns the rows to write and whether anything
// must change. When it must, the changed rows are written in one
// transaction with secure_delete on and the file is rebuilt (RebuildFile's
// VACUUM and checkpoint); otherwise the file is left untouched. A file
// without a settings table has no rows. needed says whether the rows were
// read and scrub asked for a change (so, on error, whether the file is
// known to need one). Errors wrap ErrFileBusy or ErrNotADatabase when
// that is the cause.
func ScrubSettings(ctx context.Context, path string, scrub func(rows map[string]string) (map[string]string, bool)) (needed bool, err error) {
	db, err := openFileWith(path, false, scrubBusyTimeout)
	if err != nil {
		return false, classifyFileErr(err)
	}
	defer db.Close()
	m, err := readSettings(ctx, db)
	if err != nil {
		return false, classifyFileErr(err)
	}
	rows, change := scrub(m)
	if !change {
		return false, nil
	}
	return true, classifyFileErr(rewriteSettings(ctx, db, m, rows))
}

// rewriteSettings writes the rows that differ from m, then rebuilds the
// file. secure_delete zeroes the old values in the pages the update frees.
func rewriteSettings(ctx context.Context, db *sql.DB, m, rows map[string]string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		conn.Close()
		return err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		conn.Close()
		return err
	}
	for k, v := range rows {
		if old, ok := m[k]; ok && v == old {
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE settings SET value = ? WHERE key = ?", v, k); err != nil {
			tx.Rollback()
			conn.Close()
			return err
		}
	}
	err = tx.Commit()
	conn.Close()
	if err != nil {
		return err
	}
	return vacuum(ctx, db)
}

// classifyFileErr wraps ErrFileBusy or ErrNotADatabase around SQLite's
// busy, locked, not-a-database and corrupt errors.
func classifyFileErr(err error) error {
	switch code := sqliteCode(err); {
	case code == sqlite3.SQLITE_BUSY, code == sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%w: %w", ErrFileBusy, err)
	case isCorruption(err):
		return fmt.Errorf("%w: %w", ErrNotADatabase, err)
	}
	return err
}

// ReadSettingsFile reads the settings rows of a database file that is not
// open through a DB (none: no rows).
func ReadSettingsFile(ctx context.Context, path string) (map[string]string, error) {
	db, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return readSettings(ctx, db)
}

// WriteSettingsFile upserts settings rows into a database file that is not
// open through a DB (tools and tests that prepare an old database).
func WriteSettingsFile(ctx context.Context, path string, rows map[string]string) error {
	db, err := openFile(path)
	if err != nil {
		return err
	}
	defer db.Close()
	for k, v := range rows {
		if _, err := db.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", k, v); err != nil {
			return fmt.Errorf("store: writing setting %s of %s: %w", k, path, err)
		}
	}
	return nil
}

// readSettings reads a settings table (none: no rows).
func readSettings(ctx context.Context, db *sql.DB) (map[string]string, error) {
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'settings'").Scan(&n); err != nil {
		return nil, err
	}
	m := map[string]string{}
	if n == 0 {
		return m, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT key, value FROM settings")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, rows.Err()
}

// RebuildFile rebuilds a database file so no freed page keeps old rows.
// The database may be open elsewhere in the process (idle).
func RebuildFile(ctx context.Context, path string) error {
	db, err := openFile(path)
	if err != nil {
		return err
	}
	defer db.Close()
	return vacuum(ctx, db)
}

// vacuum rebuilds the file with secure_delete on, then empties the WAL
// (when there is one) so no old page survives in either.
func vacuum(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range []string{"PRAGMA secure_delete = ON", "VACUUM"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	var mode string
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if strings.EqualFold(mode, "wal") {
		var busy, logFrames, done int
		if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		if busy != 0 {
			return errors.New("checkpoint: the database is busy")
		}
	}
	return nil
}

// beforeSQLiteOpens runs between the check of the file at path and
// SQLite's own open of it: the tests put something else there.
var beforeSQLiteOpens = func(path string) {}

// errFileChanged: the path named another file once SQLite had opened it
// (replaced, or a link swapped in, meanwhile). Nothing was read or
// written through it; a later try may succeed.
var errFileChanged = errors.New("the file changed while it was being opened; nothing was read from it")

// openFile opens an existing SQLite file with one connection. A symlink
// is followed: the database itself may be one (a person may keep it
// elsewhere).
func openFile(path string) (*sql.DB, error) {
	return openFileWith(path, true, "_pragma=busy_timeout(10000)")
}

// openFileWith opens the SQLite file at path with one connection; follow
// false refuses a symlink at path (a migration backup is never one).
//
// SQLite opens the path itself, so no descriptor of ours can be handed to
// it: what it opens is judged on both sides of its open. Before, the file
// at path must be a regular file (a named pipe would give SQLite only "disk
// I/O error"; a link swapped in would have another file rewritten). Then
// SQLite opens it (the Ping: the one connection stays open, and every
// query of the DB goes through it). After, path must still name that same
// file, or the DB is closed unused (errFileChanged). What is left: a path
// swapped away and back while SQLite opens it, which no check by path can
// see.
func openFileWith(path string, follow bool, params ...string) (*sql.DB, error) {
	pin, before, err := pinFile(path, follow)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	defer pin.Close()
	if !before.Mode().IsRegular() {
		return nil, fmt.Errorf("opening %s: %w", path, plainfile.NotRegular(before.Mode()))
	}
	beforeSQLiteOpens(path)
	// mode=rw: SQLite creates a file it does not find, and the file checked
	// may be gone by now (removed, or a link to nowhere swapped in): an empty
	// database would be left behind there.
	db, err := sql.Open("sqlite", dsn(path, append([]string{"mode=rw"}, params...)...))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	perr := db.Ping()
	if after, err := statAt(path, follow); err != nil || !after.Mode().IsRegular() || !os.SameFile(before, after) {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, errFileChanged)
	}
	if perr != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, perr)
	}
	return db, nil
}

// statAt is os.Stat, or os.Lstat with follow false (a symlink is itself).
func statAt(path string, follow bool) (fs.FileInfo, error) {
	if follow {
		return os.Stat(path)
	}
	return os.Lstat(path)
}
