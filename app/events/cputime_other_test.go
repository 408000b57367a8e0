//go:build !unix

package events

import "time"

// cpuTime is not measured here (getrusage is Unix only): the benchmark
// still runs and its cpu-ns/delta reports 0. See cputime_unix_test.go.
func cpuTime() time.Duration { return 0 }
