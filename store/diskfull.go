package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"

	sqlite3 "modernc.org/sqlite/lib"
)

// ErrDiskFull is matched (errors.Is) by a write that failed because the
// disk (or the database's size cap) is full: nothing of that write was
// stored. SQLite reports ENOSPC as SQLITE_FULL, as it does the
// max_page_count cap.
var ErrDiskFull = errors.New("disk full: not saved")

// diskFullError keeps SQLite's own error beside ErrDiskFull.
type diskFullError struct{ err error }

func (e *diskFullError) Error() string        { return "disk full: not saved (" + e.err.Error() + ")" }
func (e *diskFullError) Unwrap() error        { return e.err }
func (e *diskFullError) Is(target error) bool { return target == ErrDiskFull }

// isDiskFull reports whether err is the disk (or the size cap) being full.
func isDiskFull(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC)
}

// noteWrite records the outcome of a write: a disk-full error is wrapped
// (ErrDiskFull) and the database remembers it is full until a write
// succeeds; the OnDiskFull callback hears each change.
func (db *DB) noteWrite(err error) error {
	full := err != nil && isDiskFull(err)
	if err != nil && !full {
		return err // another failure says nothing about space
	}
	if db.full.Swap(full) != full {
		db.mu.Lock()
		fn := db.onFull
		db.mu.Unlock()
		if fn != nil {
			fn(full)
		}
	}
	if full {
		return &diskFullError{err: err}
	}
	return nil
}

// OnDiskFull sets fn to be called when a write finds the disk full
// (full = true) and when a write succeeds again afterwards (false). It
// runs on the writing goroutine: it must not write to the database.
func (db *DB) OnDiskFull(fn func(full bool)) {
	db.mu.Lock()
	db.onFull = fn
	db.mu.Unlock()
}

// DiskFull reports whether the last write found the disk full.
func (db *DB) DiskFull() bool { return db.full.Load() }

// CheckRoom returns an ErrDiskFull error when fewer than need bytes can be
// written: the free space of the disk holding the database, and what the
// database's size cap (max_page_count) still allows. It lets a caller
// refuse a write up front (the person's message, before its run starts)
// rather than fail half-way.
func (db *DB) CheckRoom(ctx context.Context, need int64) error {
	if db.readOnly {
		return ErrReadOnly
	}
	var maxPages, pages, free, size int64
	err := db.w.QueryRowContext(ctx, "SELECT (SELECT max_page_count FROM pragma_max_page_count()), "+
		"(SELECT page_count FROM pragma_page_count()), (SELECT freelist_count FROM pragma_freelist_count()), "+
		"(SELECT page_size FROM pragma_page_size())").Scan(&maxPages, &pages, &free, &size)
	if err != nil {
		return fmt.Errorf("store: checking free space: %w", err)
	}
	room := (maxPages - pages + free) * size
	if disk, ok := diskFree(filepath.Dir(db.path)); ok && disk < room {
		room = disk
	}
	if room < need {
		return &diskFullError{err: fmt.Errorf("%d bytes left where about %d are needed", max(room, 0), need)}
	}
	return nil
}

// LimitSize caps the database at about maxBytes (PRAGMA max_page_count on
// the writer): past it every write fails with ErrDiskFull, as on a full
// disk. Tests use it to fill a disk for real; 0 lifts the cap.
func (db *DB) LimitSize(ctx context.Context, maxBytes int64) error {
	if db.readOnly {
		return ErrReadOnly
	}
	var size int64
	if err := db.w.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return fmt.Errorf("store: limit size: %w", err)
	}
	pages := int64(4294967294) // SQLite's largest
	if maxBytes > 0 {
		pages = max(maxBytes/size, 1)
	}
	var got int64
	if err := db.w.QueryRowContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)).Scan(&got); err != nil {
		return fmt.Errorf("store: limit size: %w", err)
	}
	return nil
}
