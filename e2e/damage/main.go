// Command damage breaks a stopped app's database the way a disk fault
// would, for the read-only copy's e2e test: the settings table's root page
// gets an invalid b-tree page type (as store's TestCorruptDatabase does), so
// the app refuses to open it and offers a read-only copy.
//
//	go run ./e2e/damage -db <data>/juncture/juncture.db
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

func main() {
	path := flag.String("db", "", "path to juncture.db (the app must be stopped)")
	flag.Parse()
	if *path == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: damage -db <path to juncture.db>")
		os.Exit(2)
	}
	if err := damage(context.Background(), *path); err != nil {
		fmt.Fprintln(os.Stderr, "damage:", err)
		os.Exit(1)
	}
	fmt.Println("damaged the settings table's root page")
}

func damage(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err != nil {
		return err // never create an empty database by mistake
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	var root, pageSize int64
	if err := db.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_schema WHERE name = 'settings'").Scan(&root); err != nil {
		db.Close()
		return fmt.Errorf("finding the settings table: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		db.Close()
		return fmt.Errorf("reading the page size: %w", err)
	}
	// Fold the WAL into the file first, so the page written below is the one read.
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		db.Close()
		return fmt.Errorf("checkpointing: %w", err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("closing: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte{0x77}, (root-1)*pageSize); err != nil {
		f.Close()
		return fmt.Errorf("writing page %d: %w", root, err)
	}
	return f.Close()
}
