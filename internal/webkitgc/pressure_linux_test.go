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

// WebKit keeps every threshold it is given, whatever JUNCTURE_WEB_MEMORY_MIB
// says: its setters refuse a trim threshold at or above the strict one
// already there (0.5 of the limit by default) and a release threshold at
// or below the trim one already there (0.33), so the order they are set
// in matters.
func TestPressureSettingsTaken(t *testing.T) {
	for _, v := range []string{"", "12", "80", "2234", "2235", "3000", "4095"} {
		p, ok, err := pressureFrom(v, v != "")
		if err != nil || !ok {
			t.Fatalf("%q: %v %v", v, ok, err)
		}
		if !settingsTaken(p) {
			t.Errorf("JUNCTURE_WEB_MEMORY_MIB=%q: WebKit did not keep %+v", v, p)
		}
	}
}
