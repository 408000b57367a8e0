package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The shipped desktop build links no profiler: runtime/pprof (with
// text/tabwriter) was ~185 KB of the stripped binary for the soak bench's
// heap profiles alone, and a binary that links it keeps the runtime's
// memory-profile sampling on. The soak builds with -tags soakheap.
func TestShippedDesktopBuildLinksNoProfiler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "desktop,production,webkit2_41", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "runtime/pprof" {
			t.Fatal("the desktop build (-tags desktop,production,webkit2_41) links runtime/pprof")
		}
	}
}
