//go:build !soakheap

package main

import "errors"

// heapProfiles: the shipped build links no profiler. runtime/pprof (with
// text/tabwriter) was ~185 KB of the stripped desktop binary for the soak
// bench's heap profiles alone, and linking it keeps the runtime's
// memory-profile sampling on in every launch.
const heapProfiles = false

func writeHeapProfile(string) error {
	return errors.New("no heap profiles in this build (-tags soakheap)")
}
