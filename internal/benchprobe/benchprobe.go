// Package benchprobe times the runtime's share of a Stop in the desktop
// window for scripts/bench-desktop.sh (JUNCTURE_BENCH=1 only): from the
// window's Interrupt call reaching Go to the cancelled RUN_FINISHED handed
// to Wails for the page. Off (every call a no-op) unless Enable ran.
package benchprobe

import (
	"sync"
	"sync/atomic"
	"time"
)

var (
	enabled atomic.Bool
	mu      sync.Mutex
	stops   = map[string]time.Time{} // thread → when its Interrupt came
)

// Enable turns the probe on for the process (the desktop bench).
func Enable() { enabled.Store(true) }

// Interrupted notes that a Stop of threadID reached Go now.
func Interrupted(threadID string) {
	if !enabled.Load() {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	// The first Stop counts (a second Esc does not restart the clock),
	// unless it is stale: a Stop of an idle thread ends no run.
	if t, ok := stops[threadID]; ok && time.Since(t) < 10*time.Second {
		return
	}
	if len(stops) >= 64 {
		clear(stops)
	}
	stops[threadID] = time.Now()
}

// Finished returns when threadID's Stop reached Go (the wall clock: the
// bench sets it against the page's Esc key, another process's clock) and
// how long ago that was (the monotonic clock), and forgets it; ok is false
// when no Stop waited.
func Finished(threadID string) (at time.Time, d time.Duration, ok bool) {
	if !enabled.Load() {
		return time.Time{}, 0, false
	}
	mu.Lock()
	defer mu.Unlock()
	at, ok = stops[threadID]
	if ok {
		delete(stops, threadID)
		d = time.Since(at)
	}
	return at, d, ok
}
