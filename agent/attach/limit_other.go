//go:build !unix && !windows

package attach

import "os"

// limitSelf: no OS limits here; the wall clock and the decode budget bound
// the child.
func limitSelf(cpu int) error { return nil }

func maxRSS(*os.ProcessState) int64 { return 0 }

func killedByCPU(interface{ Sys() any }) bool { return false }
