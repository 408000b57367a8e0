//go:build desktop && linux && cgo

package webkitgc

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1

int pressure_install(unsigned int limit_mib, double conservative, double strict, double poll_seconds);
int pressure_applied_count(void);
int pressure_elsewhere_count(void);
double pressure_kill_threshold(void);
int pressure_new_context(void);
int pressure_new_context_with_own(void);
int pressure_settings_taken(unsigned int limit_mib, double conservative, double strict, double poll_seconds);
*/
import "C"

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync/atomic"
)

// Outcomes of pressure_install (pressure_linux.c).
const (
	pressureInstalled  = 0
	pressureAlready    = 1
	pressureNoProperty = 2
	pressureRefused    = 3
)

// ConfigurePressure gives the window's web context WindowPressure (or what
// JUNCTURE_WEB_MEMORY_MIB says) as its memory-pressure settings. Call it
// before wails.Run: the settings reach a web context made after it, and
// the web processes that context starts.
//
// Call it on the goroutine that then calls wails.Run (main's), which it
// locks to its OS thread for good: putting the constructor in place
// initializes WebKit's web context class, and with it WebKit (its main
// thread and main run loop are the calling thread's), and Wails makes
// the window's view and runs GTK on that goroutine later. Unlocked, the
// goroutine may go on on another thread after any wait in between (the
// single-instance lock's D-Bus call, files), and WebKit's main thread
// would not be the one GTK runs on.
func ConfigurePressure(log *slog.Logger) error {
	value, set := os.LookupEnv(pressureEnv)
	p, ok, err := pressureFrom(value, set)
	if err != nil {
		log.Warn("webkitgc: ignoring the memory setting", "err", err)
	}
	if !ok {
		log.Info("webkitgc: the web process keeps WebKit's memory-pressure defaults", "env", pressureEnv)
		return nil
	}
	runtime.LockOSThread() // never unlocked: see above
	return installPressure(p, log)
}

// installed is what installPressure handed WebKit, for ReportPressure.
var installed atomic.Pointer[Pressure]

// ReportPressure logs whether the window's web context took the settings.
// Call it once the window exists (OnStartup): Wails has made its context.
func ReportPressure(log *slog.Logger) {
	p := installed.Load()
	if p == nil {
		return
	}
	switch elsewhere := pressureElsewhere(); {
	case elsewhere > 0:
		log.Error("webkitgc: the window's web context was made on another thread than the one ConfigurePressure set WebKit up on", "contexts", elsewhere)
	case pressureApplied() > 0:
		log.Info("webkitgc: the window's web process gives memory back above a bound", "release_mib", p.ReleaseAtMiB, "trim_mib", p.TrimAtMiB, "poll", p.Poll)
	default:
		log.Warn("webkitgc: the window's web context was made without the memory-pressure settings; WebKit's defaults apply")
	}
}

func installPressure(p Pressure, log *slog.Logger) error {
	if err := p.valid(); err != nil {
		return err
	}
	limit, conservative, strict, poll := p.settings()
	switch C.pressure_install(C.uint(limit), C.double(conservative), C.double(strict), C.double(poll)) {
	case pressureInstalled:
		installed.Store(&p)
		log.Debug("webkitgc: the web process releases memory above a bound", "trim_mib", p.TrimAtMiB, "release_mib", p.ReleaseAtMiB, "poll", p.Poll)
		return nil
	case pressureAlready:
		return errors.New("memory-pressure settings already installed")
	case pressureRefused:
		return fmt.Errorf("WebKit refused the memory-pressure settings %+v", p)
	default:
		return errors.New("this WebKitGTK's web context has no memory-pressure-settings property (WebKitGTK 2.34 or later has)")
	}
}

// pressureApplied counts the web contexts made with the settings.
func pressureApplied() int { return int(C.pressure_applied_count()) }

// pressureElsewhere counts those made on another thread than the install's.
func pressureElsewhere() int { return int(C.pressure_elsewhere_count()) }

// killThreshold is the installed settings' kill threshold (0: none set,
// WebKit's own applies).
func killThreshold() float64 { return float64(C.pressure_kill_threshold()) }

// newContext makes and drops a web context as Wails' default one is made;
// false without a display.
func newContext() bool { return C.pressure_new_context() == 1 }

// newContextWithOwn makes and drops a web context given its own settings.
func newContextWithOwn() bool { return C.pressure_new_context_with_own() == 1 }

// settingsTaken reports whether WebKit keeps every value of p when the
// settings are made as pressure_install makes them (WebKit's setters
// refuse a value out of order with the ones already there).
func settingsTaken(p Pressure) bool {
	limit, conservative, strict, poll := p.settings()
	return C.pressure_settings_taken(C.uint(limit), C.double(conservative), C.double(strict), C.double(poll)) == 1
}
