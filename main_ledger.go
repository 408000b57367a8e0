package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/juncture-app/juncture/app"
	"github.com/juncture-app/juncture/store"
)

const ledgerUsage = `usage: juncture ledger verify                       check every link of the decision ledger
       juncture ledger export [--format jsonl|csv]  write the ledger to standard output
       juncture ledger clear                        delete the ledger (asks first; the clear is recorded)`

// ledgerCmd runs `juncture ledger …` on the database at dbPath and returns
// the exit code: 0, 1 for an error, 2 for a ledger that does not verify.
// verify and export read a copy of the database, so they work while
// Juncture runs; clear needs Juncture closed.
func ledgerCmd(args []string, dbPath string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, ledgerUsage)
		return 1
	}
	ctx := context.Background()
	fail := func(err error) int {
		fmt.Fprintln(stderr, "juncture ledger:", err)
		return 1
	}
	switch args[0] {
	case "verify":
		db, _, err := store.OpenReadOnlyCopy(ctx, dbPath)
		if err != nil {
			return fail(err)
		}
		defer db.Close()
		rep, err := db.VerifyLedger(ctx)
		if err != nil {
			return fail(err)
		}
		if !rep.OK {
			fmt.Fprintf(stdout, "BROKEN at entry %d of %d: %s\n", rep.BrokenSeq, rep.Entries, rep.Problem)
			return 2
		}
		fmt.Fprintf(stdout, "ok: %d entries, every link holds; head %s\n", rep.Entries, rep.HeadHash)
		return 0
	case "export":
		fs := flag.NewFlagSet("ledger export", flag.ContinueOnError)
		fs.SetOutput(stderr)
		format := fs.String("format", store.LedgerJSONL, "jsonl or csv")
		if err := fs.Parse(args[1:]); err != nil {
			return 1
		}
		db, _, err := store.OpenReadOnlyCopy(ctx, dbPath)
		if err != nil {
			return fail(err)
		}
		defer db.Close()
		w := bufio.NewWriter(stdout)
		if err := db.ExportLedger(ctx, w, *format); err != nil {
			return fail(err)
		}
		if err := w.Flush(); err != nil {
			return fail(err)
		}
		return 0
	case "clear":
		fmt.Fprint(stdout, "Delete every entry of the decision ledger? The clear itself is recorded. Type yes to go on: ")
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if strings.TrimSpace(line) != "yes" {
			fmt.Fprintln(stdout, "Nothing was deleted.")
			return 1
		}
		db, err := store.Open(ctx, dbPath)
		if err != nil {
			if errors.Is(err, store.ErrInUse) {
				return fail(fmt.Errorf("%w: close Juncture first", err))
			}
			return fail(err)
		}
		defer db.Close()
		if err := db.ClearLedger(ctx, "command line"); err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, "The ledger was cleared.")
		return 0
	}
	fmt.Fprintln(stderr, ledgerUsage)
	return 1
}

// runLedger is `juncture ledger` on the person's database.
func runLedger(args []string) {
	os.Exit(ledgerCmd(args, app.DatabasePath(dataDir()), os.Stdin, os.Stdout, os.Stderr))
}
