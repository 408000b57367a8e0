//go:build soakheap

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// heapProfiles: this build writes the soak's heap profiles
// (scripts/bench-soak.sh builds with -tags soakheap).
const heapProfiles = true

// writeHeapProfile writes the heap profile as of the last collection
// (TakeSoakSample has just forced one).
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating the heap profile: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return fmt.Errorf("writing the heap profile: %w", err)
	}
	return f.Close()
}
