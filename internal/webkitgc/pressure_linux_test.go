//go:build desktop && linux && cgo

package webkitgc

import (
	"log/slog"
	"runtime"
	"testing"
	"time"
)

// The settings reach a web context made the way Wails makes its default
// one (g_object_new, no properties), once per context, and a second
// install is refused rather than stacking constructors.
func TestPressureReachesANewWebContext(t *testing.T) {
	runtime.LockOSThread() // GTK from one thread
	defer runtime.UnlockOSThread()
	log := slog.New(slog.DiscardHandler)
	before := pressureApplied()
	if err := installPressure(Pressure{TrimAtMiB: 100, ReleaseAtMiB: 120, Poll: 10 * time.Second}, log); err != nil {
		t.Fatal(err)
	}
	if k := killThreshold(); k != 0 {
		t.Fatalf("kill threshold %v: WebKit could kill the window's web process for its memory", k)
	}
	if !newContext() {
		t.Skip("no display: run under xvfb-run (scripts/test-all.sh does)")
	}
	newContext()
	if got := pressureApplied() - before; got != 2 {
		t.Fatalf("settings applied to %d of 2 new web contexts", got)
	}
	// A context given its own settings keeps them.
	newContextWithOwn()
	if got := pressureApplied() - before; got != 2 {
		t.Fatalf("a context given its own settings had them replaced (%d applied)", got)
	}
	if err := installPressure(WindowPressure, log); err == nil {
		t.Fatal("a second install was accepted")
	}
	newContext()
	if got := pressureApplied() - before; got != 3 {
		t.Fatalf("after a refused second install, settings applied to %d of 3 contexts", got)
	}
}
