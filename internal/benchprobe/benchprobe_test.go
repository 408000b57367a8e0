package benchprobe

import "testing"

// The probe is off unless enabled, counts a thread's first Stop once, and
// forgets it when the run's end is seen.
func TestProbeCountsAStopOnce(t *testing.T) {
	Interrupted("th")
	if _, ok := Finished("th"); ok {
		t.Fatal("a disabled probe timed a Stop")
	}
	Enable()
	t.Cleanup(func() { enabled.Store(false); clear(stops) })
	if _, ok := Finished("th"); ok {
		t.Fatal("a run's end without a Stop was timed")
	}
	Interrupted("th")
	Interrupted("th") // a second Esc keeps the first time
	if d, ok := Finished("th"); !ok || d < 0 {
		t.Fatalf("Finished = %v, %v after a Stop", d, ok)
	}
	if _, ok := Finished("th"); ok {
		t.Fatal("one Stop was timed twice")
	}
}
