// Command damage breaks a stopped app's database the way a disk fault
// would, for the read-only copy's e2e test: the settings table's root page
// gets an invalid b-tree page type (internal/testkit/dbdamage), so the app
// refuses to open it and offers a read-only copy.
//
//	go run ./e2e/damage -db <data>/juncture/juncture.db
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/juncture-app/juncture/internal/testkit/dbdamage"
)

func main() {
	path := flag.String("db", "", "path to juncture.db (the app must be stopped)")
	flag.Parse()
	if *path == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: damage -db <path to juncture.db>")
		os.Exit(2)
	}
	if err := dbdamage.BreakTable(context.Background(), *path, "settings"); err != nil {
		fmt.Fprintln(os.Stderr, "damage:", err)
		os.Exit(1)
	}
	fmt.Println("damaged the settings table's root page")
}
