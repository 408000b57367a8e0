// Command contractgen writes frontend/src/transport/contract.gen.ts and
// parse.gen.ts: the TypeScript side of the frontend ⇄ Go contract
// (docs/contract.md), generated from the Go declarations (by reflection,
// and from the source for the constants of string enums) so the two
// cannot drift:
//
//   - every exported method of *app.App (the bound methods) as `Methods`,
//     `{args: [...]; result: ...}` per method (the error result is left out);
//   - every struct reachable from those signatures and from the event
//     payloads below, as an interface that follows encoding/json (json tags,
//     omitempty → optional, `json:"-"` skipped, embedded structs flattened);
//   - the runtime's contract (package agent/contract): the tool states, the
//     CUSTOM event names and their payloads;
//   - the payloads of the app's own events (app/events.go);
//   - every string enum at the boundary (a union, a const array, a guard);
//   - parse.gen.ts: readX/parseX for every struct, with the tolerance of
//     policies (parsers.go), and every method's result parser.
//
// Usage, from the repository root (`make contract` does this):
//
//	go run ./internal/contractgen            # writes the file
//	go run ./internal/contractgen -o -       # prints it
//
// The package's test fails when the committed file differs from what the Go
// types generate, so `go test ./...` catches a forgotten regeneration.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// OutPath is where the generated file lives, relative to the module root.
const OutPath = "frontend/src/transport/contract.gen.ts"

func main() {
	out := flag.String("o", "", "output file of the types (default: "+OutPath+" under the module root; - for stdout)")
	parsers := flag.String("parsers", "", "output file of the parsers (default: "+ParsersPath+" under the module root; - for stdout)")
	flag.Parse()
	for _, f := range []struct {
		path, def string
		gen       func() ([]byte, error)
	}{{*out, OutPath, Generate}, {*parsers, ParsersPath, GenerateParsers}} {
		if err := write(f.path, f.def, f.gen); err != nil {
			fmt.Fprintln(os.Stderr, "contractgen:", err)
			os.Exit(1)
		}
	}
}

// write generates one file into path (def under the module root when empty).
func write(path, def string, gen func() ([]byte, error)) error {
	src, err := gen()
	if err != nil {
		return err
	}
	if path == "-" {
		_, err := os.Stdout.Write(src)
		return err
	}
	if path == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		path = filepath.Join(root, def)
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, src) {
		return nil // unchanged: keep the file's timestamp
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		return err
	}
	fmt.Println("contractgen: wrote", path)
	return nil
}

// moduleRoot is the nearest directory upwards holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
