package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// Page sizes for ListThreads.
const (
	DefaultThreadPage = 50
	MaxThreadPage     = 500
)

// ThreadPage is one page of the thread list.
type ThreadPage struct {
	Threads    []history.Thread `json:"threads"`
	NextCursor string           `json:"nextCursor"` // "" on the last page
}

const threadCols = "id, title, pinned, created_at, updated_at, options"

func scanThread(s interface{ Scan(...any) error }) (history.Thread, error) {
	var t history.Thread
	var opts string
	if err := s.Scan(&t.ID, &t.Title, &t.Pinned, &t.CreatedAt, &t.UpdatedAt, &opts); err != nil {
		return t, err
	}
	if err := decodeOptions(opts, &t.Options); err != nil {
		return t, fmt.Errorf("thread %s: options: %w", t.ID, err)
	}
	return t, nil
}

// CreateThread stores a new thread. It does nothing if a thread with that id
// already exists.
func (db *DB) CreateThread(ctx context.Context, t history.Thread) error {
	if t.ID == "" {
		return errors.New("store: create thread: empty id")
	}
	if t.CreatedAt == 0 {
		t.CreatedAt = db.now()
	}
	if t.UpdatedAt == 0 {
		t.UpdatedAt = t.CreatedAt
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		return insertThread(ctx, tx, t, true)
	})
	if err != nil {
		return fmt.Errorf("store: create thread %s: %w", t.ID, err)
	}
	return nil
}

func insertThread(ctx context.Context, tx *sql.Tx, t history.Thread, ignoreExisting bool) error {
	q := `INSERT INTO threads (id, title, pinned, created_at, updated_at, options) VALUES (?, ?, ?, ?, ?, ?)`
	if ignoreExisting {
		q += ` ON CONFLICT (id) DO NOTHING`
	}
	opts, err := encodeOptions(t.Options)
	if err != nil {
		return fmt.Errorf("options: %w", err)
	}
	_, err = tx.ExecContext(ctx, q, t.ID, t.Title, boolInt(t.Pinned), t.CreatedAt, t.UpdatedAt, opts)
	return err
}

// Thread returns one thread, or ErrNotFound.
func (db *DB) Thread(ctx context.Context, id string) (history.Thread, error) {
	t, err := scanThread(db.r.QueryRowContext(ctx, "SELECT "+threadCols+" FROM threads WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Thread{}, fmt.Errorf("store: thread %s: %w", id, err)
	}
	return t, nil
}

// ListThreads returns one page of threads, pinned first, then by newest
// activity (updated_at, then id, descending). Pass "" for the first page and
// the previous page's NextCursor for the next one; the order is keyset-based,
// so threads changing between calls never cause a thread to be skipped
// because of an offset shift. limit <= 0 means DefaultThreadPage.
func (db *DB) ListThreads(ctx context.Context, cursor string, limit int) (ThreadPage, error) {
	if limit <= 0 {
		limit = DefaultThreadPage
	}
	limit = min(limit, MaxThreadPage)
	q := "SELECT " + threadCols + " FROM threads"
	args := []any{}
	if cursor != "" {
		c, err := decodeCursor(cursor)
		if err != nil {
			return ThreadPage{}, fmt.Errorf("store: list threads: %w", err)
		}
		q += " WHERE (pinned, updated_at, id) < (?, ?, ?)"
		args = append(args, c.pinned, c.updatedAt, c.id)
	}
	q += " ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?"
	args = append(args, limit+1)

	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return ThreadPage{}, fmt.Errorf("store: list threads: %w", err)
	}
	defer rows.Close()
	page := ThreadPage{Threads: make([]history.Thread, 0, limit)}
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return ThreadPage{}, fmt.Errorf("store: list threads: %w", err)
		}
		page.Threads = append(page.Threads, t)
	}
	if err := rows.Err(); err != nil {
		return ThreadPage{}, fmt.Errorf("store: list threads: %w", err)
	}
	if len(page.Threads) > limit {
		page.Threads = page.Threads[:limit]
		last := page.Threads[limit-1]
		page.NextCursor = encodeCursor(threadCursor{pinned: boolInt(last.Pinned), updatedAt: last.UpdatedAt, id: last.ID})
	}
	return page, nil
}

type threadCursor struct {
	pinned    int
	updatedAt int64
	id        string
}

// The cursor is opaque to callers: base64url("v1:<pinned>:<updated_at>:<id>").
func encodeCursor(c threadCursor) string {
	s := fmt.Sprintf("v1:%d:%d:%s", c.pinned, c.updatedAt, c.id)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

func decodeCursor(s string) (threadCursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return threadCursor{}, ErrBadCursor
	}
	parts := strings.SplitN(string(b), ":", 4)
	if len(parts) != 4 || parts[0] != "v1" {
		return threadCursor{}, ErrBadCursor
	}
	p, err1 := strconv.Atoi(parts[1])
	u, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || (p != 0 && p != 1) {
		return threadCursor{}, ErrBadCursor
	}
	return threadCursor{pinned: p, updatedAt: u, id: parts[3]}, nil
}

// RenameThread sets a thread's title (it does not count as activity).
func (db *DB) RenameThread(ctx context.Context, id, title string) error {
	return db.updateThread(ctx, "rename thread", id, "UPDATE threads SET title = ? WHERE id = ?", title, id)
}

// SetPinned pins or unpins a thread (it does not count as activity).
func (db *DB) SetPinned(ctx context.Context, id string, pinned bool) error {
	return db.updateThread(ctx, "pin thread", id, "UPDATE threads SET pinned = ? WHERE id = ?", boolInt(pinned), id)
}

// DeleteThread deletes a thread and everything that belongs to it: messages,
// runs, interrupts, tool executions, client tool calls, staged answers and
// their search index entries, and the attached files no other thread
// uses. It returns ErrNotFound if there is no such thread.
func (db *DB) DeleteThread(ctx context.Context, id string) error {
	return db.updateThread(ctx, "delete thread", id, "DELETE FROM threads WHERE id = ?", id)
}

func (db *DB) updateThread(ctx context.Context, what, id, q string, args ...any) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if what == "delete thread" {
			if err := redactThreadLedger(ctx, tx, id, db.now()); err != nil {
				return err
			}
			return deleteUnreferencedAttachments(ctx, tx)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: %s %s: %w", what, id, err)
	}
	return nil
}

// DeleteAllHistory deletes every thread and everything that belongs to them,
// in one transaction. Permission rules and settings are kept.
func (db *DB) DeleteAllHistory(ctx context.Context) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM threads"); err != nil {
			return err
		}
		if err := redactThreadLedger(ctx, tx, "", db.now()); err != nil {
			return err
		}
		return deleteUnreferencedAttachments(ctx, tx)
	})
	if err != nil {
		return fmt.Errorf("store: delete all history: %w", err)
	}
	return nil
}

// touchThread records activity on a thread; it returns ErrNotFound if the
// thread does not exist.
func touchThread(ctx context.Context, tx *sql.Tx, id string, now int64) error {
	res, err := tx.ExecContext(ctx, "UPDATE threads SET updated_at = max(updated_at, ?) WHERE id = ?", now, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("thread %s: %w", id, ErrNotFound)
	}
	return nil
}
