package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/juncture-app/juncture/internal/plainfile"
)

// readers is the size of the read pool. Reads run beside the single writer
// thanks to WAL; more readers than cores buys nothing on a desktop.
const readers = 4

// Connection settings. busy_timeout matters only when another process
// holds the database (a second Juncture); in-process writes are serialised
// by the single writer connection.
//
// The page caches are the app's memory that grows with use (issue 26): a
// connection keeps up to cache_size of pages for its whole life, and each
// 4 KiB page costs about twice that in the process (with its header it
// falls in the 8 KiB size class of modernc's allocator). The readers keep
// SQLite's default 2 MiB, the writer 500 KiB (below): the pages a
// connection reads come from the OS's file cache when they are not in its
// own. For search that costs no measurable
// CPU (BenchmarkSearchScale at 100 k messages: the same CPU p50 per kind of
// query with 16 MiB and with 2 MiB). The writer used to keep 16 MiB: filled
// over a day of turns, that was ~32 MiB of the app's memory
// (BenchmarkWriteMemory: +14.5 MiB after 2,400 answers and still growing,
// against +4.2 MiB and flat with 2 MiB). What it bought is append
// latency on a large history, measured side by side on 100 k messages
// (BenchmarkPutMessageAppend, 2026-12-03, load 2–4): p50 0.55–0.77 ms and
// p95 0.9–2.0 ms with 16 MiB, 0.68–0.87 and 1.7–5.4 ms with 2 MiB (4 MiB:
// the same as 2). Appends run on the writer's goroutine, off the stream and
// a few times per turn, so a fraction of a millisecond there is not felt;
// 28 MiB held all day is.
//
// The writer now keeps 500 KiB (2026-12-04). Its 2 MiB still filled over a
// day of turns: ~4 MiB of the app's memory, the largest part of SQLite's
// share of the desktop soak's growth (BenchmarkTurnMemory, 500 turns with
// the window's reads beside them: +3.3–4.3 MiB from turn 50 to 500 with
// 2 MiB, +0.8–1.4 MiB with 500 KiB). A turn's writes touch few pages
// (BenchmarkPutMessageSpread, random ids over 100 k messages: 2.6 cache
// misses per append with 2 MiB, 4.4 with 500 KiB, each a read from the
// OS's file cache, for the same CPU per append within the machine's noise:
// 780–785 µs against 770–849, load 9–11); a large transaction (2,000 messages at once) spills to the -wal
// as much with either. The readers' caches do not last: a reader drops
// its cache whenever it starts a transaction after another write
// (SQLite's WAL check), so in use they hold what was read since the last
// write, and their size or number moved nothing (BenchmarkTurnMemory with
// 2 readers or 500 KiB each: as with 4 of 2 MiB). Not taken: emptying the
// writer's cache after every commit (PRAGMA shrink_memory): as flat, but
// 28 misses and 850–952 µs of CPU per append (~+10%). PRAGMA
// soft_heap_limit would do nothing here: modernc builds SQLite with
// SQLITE_DEFAULT_MEMSTATUS=0, and without memory statistics the limit is
// never checked.
const (
	pragmaBusy        = "_pragma=busy_timeout(5000)"
	pragmaWriterCache = "_pragma=cache_size(-500)"  // 500 KiB page cache
	pragmaReaderCache = "_pragma=cache_size(-2000)" // 2 MiB page cache per reader
)

// readerMaxIdle closes a reader that no query has used for this long, and
// frees its page cache with it: after a burst of searches the app goes
// back to one open reader or none instead of keeping all of them for the
// rest of the session. Reopening one costs well under a millisecond.
var readerMaxIdle = 30 * time.Second

// DB is the Juncture history database. It is safe for concurrent use.
type DB struct {
	path     string
	w        *sql.DB // exactly one connection: every change goes through it
	r        *sql.DB // read pool (the same pool as w for a read-only copy)
	readOnly bool
	tmpDir   string   // removed on Close (read-only copies)
	viewed   sync.Map // thread id → the version a read-only copy shows (viewed.go)
	now      func() int64

	prefixBudget time.Duration // see DefaultPrefixBudget; 0 = unlimited
	searchBudget time.Duration // see DefaultSearchBudget; 0 = unlimited
	rankBudget   float64       // see bm25Budget
	narrowScan   int           // see DefaultNarrowScan
	narrowBytes  int           // see DefaultNarrowBytes

	mu     sync.Mutex
	cps    map[*Checkpointer]struct{}
	closed bool
	marked bool // Open wrote the ".open" marker; a clean Close removes it

	lock *fileLock // the data folder's lock (Open), or the copy's (OpenReadOnlyCopy)

	full   atomic.Bool     // the last write found the disk full (diskfull.go)
	onFull func(full bool) // guarded by mu
}

// Open opens (creating it if needed) the history database at path, checks
// it, backs it up and migrates it to the current schema.
//
// It first takes the data folder's lock (LockPath): a second Juncture on
// the same folder gets an *InUseError (errors.Is ErrInUse) before anything
// is read, so its crash recovery never touches the first one's live runs.
// The lock is held until Close, and dies with the process.
//
// It returns a *NewerSchemaError for a database written by a newer Juncture
// and a *CorruptError for one that fails PRAGMA quick_check; in both cases
// nothing is written to the file or its -wal: the checks run on a
// read-only connection, which never checkpoints.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: open: empty path")
	}
	if err := PrivateDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	lock, err := lockDatabase(path)
	if err != nil {
		return nil, err
	}
	db, err := openLocked(ctx, path)
	if err != nil {
		_ = lock.release() // the open's error is the one to report
		return nil, err
	}
	db.lock = lock
	return db, nil
}

// openLocked is Open once the data folder's lock is held.
func openLocked(ctx context.Context, path string) (*DB, error) {
	// Once: SQLite creates the -wal, -shm and -journal it makes later with
	// the database file's mode, 0600 from here on.
	if err := privateDatabaseFiles(path); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	checked, err := checkReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	// journal_mode is deliberately not in the DSN: switching a database to
	// WAL writes its header, and nothing may be written before the checks
	// below have passed.
	w, err := sql.Open("sqlite", dsn(path,
		pragmaBusy, pragmaWriterCache,
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(FULL)",
		"_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	if err := prepare(ctx, w, path, checked); err != nil {
		w.Close()
		return nil, err
	}

	r, err := sql.Open("sqlite", dsn(path, pragmaBusy, pragmaReaderCache, "_pragma=query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	r.SetConnMaxIdleTime(readerMaxIdle)
	// Mark the file open; a clean Close removes the mark, so the next
	// Open knows whether the last session ended in a crash.
	if err := os.WriteFile(openMarker(path), nil, fileMode); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db := newDB(path, w, r, false, "")
	db.marked = true
	return db, nil
}

// checkReadOnly refuses a newer or damaged database without writing a
// byte: it reads the schema version (and runs quick_check when due) on a
// read-only connection. A read-write connection would replay and
// checkpoint a -wal file into the database when it closes, changing the
// very file the refusal says it left alone. SQLite may create the -shm
// (an index of the -wal, not data).
//
// It reports checked = false when SQLite cannot read the file read-only (a
// hot rollback journal needs a writer to roll it back): the writer's own
// checks (prepare) then decide, as they did before.
func checkReadOnly(ctx context.Context, path string) (checked bool, err error) {
	c, err := sql.Open("sqlite", dsn(path, "mode=ro", pragmaBusy))
	if err != nil {
		return false, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer c.Close()
	c.SetMaxOpenConns(1)
	version, err := userVersion(ctx, c)
	if isReadOnlyRefusal(err) {
		return false, nil
	}
	if err != nil {
		if isCorruption(err) {
			return false, &CorruptError{Path: path, Detail: err.Error()}
		}
		return false, fmt.Errorf("store: open %s: %w", path, err)
	}
	if version > SchemaVersion {
		return false, &NewerSchemaError{Path: path, Found: version, Supported: SchemaVersion}
	}
	if needsFullCheck(path, version) {
		if err := quickCheck(ctx, c, path); isReadOnlyRefusal(err) {
			return false, nil
		} else if err != nil {
			return false, err
		}
	}
	return true, nil
}

// fullCheckBelow is the size under which PRAGMA quick_check runs at every
// open (about 15 ms per MB on a 2-core machine).
const fullCheckBelow = 64 << 20

func openMarker(path string) string { return path + ".open" }

// needsFullCheck says whether Open reads the whole file with quick_check:
// always for a small database, before a migration, and after a session
// that did not close cleanly (a crash, a kill, a power cut). A large
// database that was closed cleanly opens without the multi-second scan;
// SQLite still verifies every page it reads.
func needsFullCheck(path string, version int) bool {
	if version < SchemaVersion {
		return true
	}
	if _, err := os.Stat(openMarker(path)); err == nil {
		return true
	}
	fi, err := os.Stat(path)
	return err != nil || fi.Size() < fullCheckBelow
}

// prepare runs the open-time checks (unless checkReadOnly made them), the
// backup and the migrations on the writer connection.
func prepare(ctx context.Context, w *sql.DB, path string, checked bool) error {
	version, err := userVersion(ctx, w)
	if err != nil {
		if isCorruption(err) {
			return &CorruptError{Path: path, Detail: err.Error()}
		}
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	if version > SchemaVersion {
		return &NewerSchemaError{Path: path, Found: version, Supported: SchemaVersion}
	}
	if !checked && needsFullCheck(path, version) {
		if err := quickCheck(ctx, w, path); err != nil {
			return err
		}
	}
	if version < SchemaVersion {
		if err := backupBeforeMigrating(ctx, w, path, version); err != nil {
			return err
		}
	}
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
		return fmt.Errorf("store: open %s: enable WAL: %w", path, err)
	}
	if err := migrate(ctx, w, version); err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	return nil
}

func newDB(path string, w, r *sql.DB, readOnly bool, tmpDir string) *DB {
	return &DB{
		path: path, w: w, r: r, readOnly: readOnly, tmpDir: tmpDir,
		now:          func() int64 { return time.Now().UnixMilli() },
		prefixBudget: DefaultPrefixBudget,
		searchBudget: DefaultSearchBudget,
		rankBudget:   bm25Budget,
		narrowScan:   DefaultNarrowScan,
		narrowBytes:  DefaultNarrowBytes,
		cps:          make(map[*Checkpointer]struct{}),
	}
}

// OpenReadOnlyCopy copies the database at path (with its -wal file, if any)
// into a new folder of CopiesDir and opens the copy read-only, without any
// check, so a person whose database is damaged or too new can still browse
// what it holds (a copy of an older schema is migrated first: migrateCopy). The original is only read, and its data
// folder's lock is not taken. Every change through the returned DB fails
// with ErrReadOnly. Close removes the copy; if the process dies first, the
// next start removes it (RemoveStaleCopies).
func OpenReadOnlyCopy(ctx context.Context, path string) (*DB, string, error) {
	_, _ = RemoveStaleCopies() // one that cannot go now stays for the next start
	dir, lock, err := newCopyDir()
	if err != nil {
		return nil, "", fmt.Errorf("store: read-only copy of %s: %w", path, err)
	}
	copyPath := filepath.Join(dir, filepath.Base(path))
	fail := func(err error) (*DB, string, error) {
		_ = lock.release() // the copy's error is the one to report
		os.RemoveAll(dir)
		return nil, "", fmt.Errorf("store: read-only copy of %s: %w", path, err)
	}
	if err := copyFile(path, copyPath); err != nil {
		return fail(err)
	}
	if err := copyFile(path+"-wal", copyPath+"-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail(err)
	}
	migrateCopy(ctx, copyPath)
	r, err := sql.Open("sqlite", dsn(copyPath, "mode=ro", pragmaBusy, pragmaReaderCache, "_pragma=query_only(1)"))
	if err != nil {
		return fail(err)
	}
	r.SetMaxOpenConns(readers)
	r.SetConnMaxIdleTime(readerMaxIdle)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		return fail(err)
	}
	db := newDB(copyPath, r, r, true, dir)
	db.lock = lock
	return db, copyPath, nil
}

// migrateCopy brings a copy of an older schema to this build's: a
// database is checked in full before it is migrated, so a damaged one is
// refused (and copied) as it was, and every read of the current schema
// fails on the old one ("no such column"). Only the private copy is
// written. The migrations go one at a time, each in its own transaction,
// as far as the damage lets them: one that reads a damaged table (v8
// rebuilds permission_rules) rolls back alone, and the copy keeps the
// versions before it (the chats' columns come at v5).
func migrateCopy(ctx context.Context, copyPath string) {
	w, err := sql.Open("sqlite", dsn(copyPath, pragmaBusy))
	if err != nil {
		return
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	version, err := userVersion(ctx, w)
	if err != nil {
		return
	}
	for _, m := range migrations {
		if m.version <= version {
			continue
		}
		if migrateTo(ctx, w, version, m.version) != nil {
			return
		}
		version = m.version
	}
}

// copyFile copies from into a new 0600 file, streaming (a history can be
// gigabytes). What is at from must be a regular file (plainfile.Open).
func copyFile(from, to string) error {
	in, err := plainfile.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Path is the file the database was opened from (the copy, for a read-only
// copy).
func (db *DB) Path() string { return db.path }

// Close flushes and stops every open Checkpointer, then closes the database.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	cps := make([]*Checkpointer, 0, len(db.cps))
	for cp := range db.cps {
		cps = append(cps, cp)
	}
	db.mu.Unlock()

	var errs []error
	for _, cp := range cps {
		errs = append(errs, cp.Close())
	}
	if db.r != db.w {
		errs = append(errs, db.r.Close())
	}
	errs = append(errs, db.w.Close())
	if db.marked && len(errs) > 0 && errors.Join(errs...) == nil {
		errs = append(errs, os.Remove(openMarker(db.path)))
	}
	// The lock goes last: the next opener finds the marker as this one
	// left it. A copy's lock is released before its folder is removed
	// (Windows cannot delete an open file).
	errs = append(errs, db.lock.release())
	if db.tmpDir != "" {
		errs = append(errs, os.RemoveAll(db.tmpDir))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// dsn builds a modernc.org/sqlite URI for path with the given parameters.
func dsn(path string, params ...string) string {
	p := filepath.ToSlash(path)
	if len(p) >= 2 && p[1] == ':' { // Windows drive letter: file:/C:/...
		p = "/" + p
	}
	p = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(p)
	return "file:" + p + "?" + strings.Join(params, "&")
}

// writeTx runs fn in one IMMEDIATE transaction on the writer connection.
// fn's error is returned as is (the caller wraps it).
func (db *DB) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.readOnly {
		return ErrReadOnly
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return db.noteWrite(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return db.noteWrite(err)
	}
	return db.noteWrite(tx.Commit())
}

// readTx runs fn in one read transaction (a consistent snapshot) on the
// read pool.
func (db *DB) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// newID returns a random 128-bit identifier as 32 hex digits.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isCorruption reports whether err is SQLite saying the file is not a sound
// database.
func isCorruption(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// isReadOnlyRefusal reports whether err is SQLite declining a read-only
// connection (SQLITE_READONLY and its extended codes).
func isReadOnlyRefusal(err error) bool { return sqliteCode(err) == sqlite3.SQLITE_READONLY }

// sqliteCode is the primary result code of a SQLite error in err's chain
// (an extended code's low byte), or 0 when err is not SQLite's.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0
	}
	return se.Code() & 0xff
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nullJSON stores an empty raw JSON value as NULL.
func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}
