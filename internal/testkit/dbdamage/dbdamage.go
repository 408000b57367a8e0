// Package dbdamage breaks a stopped app's SQLite database the way a disk
// fault would, for the tests of a damaged history and its read-only copy
// (app's, and e2e/damage for the browser story): one table's root page gets
// an invalid b-tree page type, as store's TestCorruptDatabase does.
package dbdamage

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

// BreakTable gives table's root page in the database at path an invalid
// b-tree page type. The WAL is folded into the file first, so the page
// written is the one read. The database must exist and nothing may have it
// open.
func BreakTable(ctx context.Context, path, table string) error {
	if _, err := os.Stat(path); err != nil {
		return err // never create an empty database by mistake
	}
	root, pageSize, err := rootPage(ctx, path, table)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte{0x77}, (root-1)*pageSize); err != nil {
		f.Close()
		return fmt.Errorf("writing page %d of %s: %w", root, path, err)
	}
	return f.Close()
}

// rootPage finds table's root page and the page size, and checkpoints.
func rootPage(ctx context.Context, path, table string) (root, pageSize int64, err error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return 0, 0, fmt.Errorf("opening %s: %w", path, err)
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_schema WHERE name = ?", table).Scan(&root); err != nil {
		return 0, 0, fmt.Errorf("finding the %s table: %w", table, err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return 0, 0, fmt.Errorf("reading the page size: %w", err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return 0, 0, fmt.Errorf("checkpointing: %w", err)
	}
	return root, pageSize, db.Close()
}
