//go:build desktop && linux && cgo

package webkitgc

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
		t.Fatalf("kill threshold %v: WebKit would kill the window's web process near the release threshold", k)
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

// Installs at once are one at a time: every web context made after them
// takes the settings once, and no constructor chains to itself (the
// second of two unguarded installs would take pressure_constructor for
// its parent). In a process of its own: the first install is the one
// that races.
func TestPressureInstallsAtOnce(t *testing.T) {
	inOwnProcess(t, "WEBKITGC_INSTALLS_AT_ONCE", installsAtOnce)
}

// inOwnProcess runs the calling test again in a process of its own, with
// marker=1 and env added, where it runs child instead (a process's first
// install is the one these tests need). The child exits non-zero on a
// failure and prints SKIP without a display.
func inOwnProcess(t *testing.T, marker string, child func(), env ...string) {
	if os.Getenv(marker) == "1" {
		child()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), marker+"=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(string(out), "SKIP") {
		t.Skip("no display: run under xvfb-run (scripts/test-all.sh does)")
	}
}

func installsAtOnce() {
	log := slog.New(slog.DiscardHandler)
	var wg sync.WaitGroup
	var ok atomic.Int32
	for range 8 {
		wg.Go(func() {
			if installPressure(WindowPressure, log) == nil {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 {
		fmt.Printf("%d installs succeeded\n", ok.Load())
		os.Exit(1)
	}
	runtime.LockOSThread()
	if !newContext() {
		fmt.Println("SKIP")
		return
	}
	if pressureApplied() != 1 {
		fmt.Printf("settings applied %d times to one context\n", pressureApplied())
		os.Exit(1)
	}
}

// ConfigurePressure sets WebKit up on the calling thread (the context
// class's initialization makes it WebKit's main thread), and Wails makes
// the window's context and runs GTK later on the goroutine that called
// it: that goroutine must stay on that thread in between, however often
// it waits. In a process of its own: the first install is the one.
func TestPressureKeepsItsThread(t *testing.T) {
	inOwnProcess(t, "WEBKITGC_KEEPS_ITS_THREAD", keepsItsThread, pressureEnv+"=")
}

func keepsItsThread() {
	done := make(chan struct{})
	go func() { // as main's goroutine, which nothing locks before wails.Run
		defer close(done)
		if err := ConfigurePressure(slog.New(slog.DiscardHandler)); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		// What happens before Wails makes its window: the goroutine
		// waits (D-Bus for the single-instance lock, files, channels)
		// while others run. Here its thread is free while it waits, and
		// taken by a goroutine in a blocking system call when it wakes:
		// unless locked to its thread, it goes on on another.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { _ = syscall.Nanosleep(&syscall.Timespec{Nsec: 200e6}, nil) })
		}
		time.Sleep(50 * time.Millisecond)
		wg.Wait()
		if !newContext() {
			fmt.Println("SKIP")
			return
		}
		if n := pressureElsewhere(); n != 0 {
			fmt.Printf("%d web contexts made on another thread than WebKit was set up on\n", n)
			os.Exit(1)
		}
	}()
	<-done
}
