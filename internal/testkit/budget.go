package testkit

import (
	"runtime"
	"testing"
	"time"
)

// Budget runs f once and fails t when it took longer than maxTime or
// allocated more than maxAlloc bytes: the budgets a fuzz target or a
// hostile test decides before it starts, so an input that loops or
// balloons fails as surely as one that panics. Allocation is the whole
// process's (MemStats.TotalAlloc): not for parallel tests.
func Budget(t testing.TB, what string, maxTime time.Duration, maxAlloc uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if took > maxTime {
		t.Fatalf("%s took %v (budget %v)", what, took, maxTime)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > maxAlloc {
		t.Fatalf("%s allocated %d bytes (budget %d)", what, grew, maxAlloc)
	}
}
