// Command unbind simulates a database written by a future Juncture: it
// rewrites the TanStack binding of every pending interrupt to a binding
// version this Juncture does not know, so the items read as unbound
// (display-only, never blocking). The e2e tests use it on a stopped app:
//
//	go run ./e2e/unbind -db <data>/juncture/juncture.db
//
// With -foreign it also removes the item's public metadata kind, the legacy
// marker through which the Go runtime would still read a Juncture approval
// (agent/interrupt classify), leaving an item no Juncture can answer.
//
// It prints how many items it changed and fails when there was none.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite"
)

// bindingVersion is a binding version no Juncture release has used.
const bindingVersion = 999

func main() {
	path := flag.String("db", "", "path to juncture.db (the app must be stopped)")
	foreign := flag.Bool("foreign", false, "also remove metadata.kind (the legacy approval marker)")
	flag.Parse()
	if *path == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: unbind -db <path to juncture.db>")
		os.Exit(2)
	}
	n, err := unbind(context.Background(), *path, *foreign)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unbind:", err)
		os.Exit(1)
	}
	fmt.Printf("unbound %d pending interrupt(s) (binding version %d)\n", n, bindingVersion)
}

func unbind(ctx context.Context, path string, foreign bool) (int64, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, err // never create an empty database by mistake
	}
	p := filepath.ToSlash(path)
	p = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(p)
	db, err := sql.Open("sqlite", "file:"+p+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	set := `json_set(descriptor, '$.metadata."tanstack:interruptBinding".v', ?)`
	if foreign {
		set = `json_remove(` + set + `, '$.metadata.kind')`
	}
	res, err := db.ExecContext(ctx, `
		UPDATE interrupts
		SET descriptor = `+set+`
		WHERE status = 'pending'
		  AND json_valid(descriptor)
		  AND json_type(descriptor, '$.metadata."tanstack:interruptBinding"') = 'object'`, bindingVersion)
	if err != nil {
		return 0, fmt.Errorf("rewriting the bindings: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if n == 0 {
		var pending int
		_ = db.QueryRowContext(ctx, `SELECT count(*) FROM interrupts WHERE status = 'pending'`).Scan(&pending)
		return 0, fmt.Errorf("no pending interrupt with a binding in %s (%d pending in all)", path, pending)
	}
	return n, nil
}
