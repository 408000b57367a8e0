package benchprobe

import (
	"testing"
	"time"
)

// The probe is off unless enabled, counts a thread's first Stop once, and
// forgets it when the run's end is seen.
func TestProbeCountsAStopOnce(t *testing.T) {
	Interrupted("th")
	if _, _, ok := Finished("th"); ok {
		t.Fatal("a disabled probe timed a Stop")
	}
	Enable()
	t.Cleanup(func() { enabled.Store(false); clear(stops) })
	if _, _, ok := Finished("th"); ok {
		t.Fatal("a run's end without a Stop was timed")
	}
	Interrupted("th")
	Interrupted("th") // a second Esc keeps the first time
	before := time.Now()
	if at, d, ok := Finished("th"); !ok || d < 0 || at.After(before) {
		t.Fatalf("Finished = %v, %v, %v after a Stop", at, d, ok)
	}
	if _, _, ok := Finished("th"); ok {
		t.Fatal("one Stop was timed twice")
	}
}
