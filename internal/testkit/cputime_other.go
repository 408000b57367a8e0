//go:build !unix

package testkit

import "time"

// CPUTime is 0 where getrusage is missing: a benchmark then reports no CPU.
func CPUTime() time.Duration { return 0 }
