package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one embedded migrations/NNNN_name.sql file. Migrations are
// forward-only and never delete data; version N is the schema after it ran.
type migration struct {
	version int
	name    string
	sql     string
}

var migrations = mustLoadMigrations()

// SchemaVersion is the newest schema this build knows (PRAGMA user_version).
var SchemaVersion = migrations[len(migrations)-1].version

func mustLoadMigrations() []migration {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		panic(err)
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("store: bad migration file name " + e.Name())
		}
		b, err := migrationFS.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			panic(err)
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			panic(fmt.Sprintf("store: migrations must be numbered 1..n without gaps; found %s", m.name))
		}
	}
	return ms
}

func userVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// quickCheck runs PRAGMA quick_check and turns anything but "ok" into a
// *CorruptError.
func quickCheck(ctx context.Context, db *sql.DB, path string) error {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(20)")
	if err != nil {
		if isCorruption(err) {
			return &CorruptError{Path: path, Detail: err.Error()}
		}
		return fmt.Errorf("store: open %s: integrity check: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return fmt.Errorf("store: open %s: integrity check: %w", path, err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorruption(err) {
			return &CorruptError{Path: path, Detail: err.Error()}
		}
		return fmt.Errorf("store: open %s: integrity check: %w", path, err)
	}
	if len(problems) > 0 {
		return &CorruptError{Path: path, Detail: strings.Join(problems, "; ")}
	}
	return nil
}

// backupBeforeMigrating copies a database that holds anything into
// <path>.pre-vN.bak (N being the first version about to be applied) with
// VACUUM INTO, so a failed or regretted upgrade can always be undone by
// hand. An existing backup of that name is never overwritten.
func backupBeforeMigrating(ctx context.Context, db *sql.DB, dbPath string, version int) error {
	var objects int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return fmt.Errorf("store: open %s: %w", dbPath, err)
	}
	if version == 0 && objects == 0 {
		return nil // a new, empty database: nothing to keep
	}
	dest := BackupPath(dbPath, version+1)
	if _, err := os.Stat(dest); err == nil {
		dest = fmt.Sprintf("%s.pre-v%d.%d.bak", dbPath, version+1, time.Now().UnixMilli())
	}
	// VACUUM INTO would create the file 0644 (less the umask); an empty
	// file made first keeps its 0600.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return fmt.Errorf("store: open %s: back up before migrating: %w", dbPath, err)
	}
	f.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		return fmt.Errorf("store: open %s: back up before migrating: %w", dbPath, err)
	}
	return nil
}

// BackupPath is where Open copies a database before migrating it to
// version.
func BackupPath(dbPath string, version int) string {
	return fmt.Sprintf("%s.pre-v%d.bak", dbPath, version)
}

// Backups lists the backups Open made of the database at dbPath before
// migrating it (BackupPath, and the timestamped names of a second backup
// for the same version): <dbPath>.pre-v*.bak.
func Backups(dbPath string) []string {
	// The path is literal: its glob characters are escaped (as bracket
	// classes, which filepath.Match reads alike on every system).
	lit := strings.NewReplacer("[", "[[]", "*", "[*]", "?", "[?]").Replace(dbPath)
	backups, _ := filepath.Glob(lit + ".pre-v*.bak") // the pattern is well formed
	return backups
}

// migrate applies every migration newer than from, all in one transaction:
// the database ends at SchemaVersion or stays exactly as it was.
func migrate(ctx context.Context, db *sql.DB, from int) error {
	return migrateTo(ctx, db, from, SchemaVersion)
}

func migrateTo(ctx context.Context, db *sql.DB, from, to int) error {
	if from >= to {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	for _, m := range migrations {
		if m.version <= from || m.version > to {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migrate to v%d (%s): %w", m.version, m.name, err)
		}
	}
	// PRAGMA takes no bound parameters; to is an int we own.
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(to)); err != nil {
		return fmt.Errorf("migrate: set version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}
