package agent

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkIdleThreadHandle reports the memory one idle thread costs the
// runtime (its handle and map entry), measured over 100,000 handles.
func BenchmarkIdleThreadHandle(b *testing.B) {
	const n = 100_000
	for i := 0; i < b.N; i++ {
		rt := New(Options{})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rt.mu.Lock()
		for j := 0; j < n; j++ {
			rt.handle(fmt.Sprintf("thread-%032d", j))
		}
		rt.mu.Unlock()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/idle-thread")
		runtime.KeepAlive(rt)
		rt.cancel()
	}
}
