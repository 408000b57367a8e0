package webkitgc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Pressure is when the window's web process gives memory back on its own,
// through WebKit's memory-pressure handler (WebKitMemoryPressureSettings).
//
// WebKit's web process measures its own footprint (its private dirty
// memory) every Poll. Above ReleaseAtMiB it releases as under critical
// memory pressure: the next full JavaScript collection brought forward
// (not run there and then: the release is asynchronous), the compiled code
// dropped unless a collection is under way (it is compiled again when it
// runs), WebCore's caches emptied and the freed pages handed back to the
// system. Above TrimAtMiB it only empties caches. Nothing the page holds
// is lost: the DOM, the JavaScript objects, the scroll position and the
// composer's text stay.
// These settings add no kill threshold; WebKit's own stays as it was
// (WTF's MemoryPressureHandler::thresholdForMemoryKill, 2025: 7 GB plus
// 1 GB a page for a process with a visible page, 15 GB plus 1 GB a page
// above 16 GB of RAM; for one without, 3 GB plus 1 GB a page or 90% of
// RAM, whichever is less).
//
// By default WebKitGTK sets these at a third and at half of the machine's
// RAM or of 3 GB, whichever is less (~1 GB and 1.5 GB on most machines):
// a window's web process never reaches them, and what
// it gathers over a day of turns stays (bench/README.md, "A day's use":
// compiled code, JavaScriptCore's blocks, caches; one critical release in
// the middle of a soak gave back ~21 MiB of ~115).
type Pressure struct {
	TrimAtMiB    uint
	ReleaseAtMiB uint
	Poll         time.Duration
}

// WindowPressure is what Juncture's window uses. The web process's
// footprint (WebKit's own measure, read with gdb) is ~17 MiB in a window
// just opened and 86–91 MiB after 80–100 turns of the soak; what a day adds
// on top of that is what a release gives back. ReleaseAtMiB sits near the
// level of a page in use so that a release comes once per many turns
// (every ~30 turns at the soak's pace of a turn each 2 s), not every poll,
// and a page that really holds more (a 2,000-message thread) is released
// at most once per Poll: a collection and code compiled again, not a loss.
var WindowPressure = Pressure{TrimAtMiB: 73, ReleaseAtMiB: 80, Poll: time.Minute}

// pressureEnv overrides WindowPressure: "off" (WebKit's own defaults) or
// the release threshold in MiB ("128"); the trim threshold follows it.
const pressureEnv = "JUNCTURE_WEB_MEMORY_MIB"

// limitMiB is the memory limit handed to WebKit; the thresholds are
// fractions of it, so it is set well above both and has no meaning of its
// own (a kill threshold, the only other use, is not set).
const limitMiB = 4096

// settings returns WebKit's memory limit, conservative and strict
// fractions and poll interval in seconds.
func (p Pressure) settings() (limit uint, conservative, strict, poll float64) {
	return limitMiB, float64(p.TrimAtMiB) / limitMiB, float64(p.ReleaseAtMiB) / limitMiB, p.Poll.Seconds()
}

// valid reports whether WebKit accepts p: both thresholds inside (0, limit),
// trim below release, and a poll of at least a second.
func (p Pressure) valid() error {
	switch {
	case p.ReleaseAtMiB == 0 || p.ReleaseAtMiB >= limitMiB:
		return fmt.Errorf("release threshold %d MiB out of range (1–%d)", p.ReleaseAtMiB, limitMiB-1)
	case p.TrimAtMiB == 0 || p.TrimAtMiB >= p.ReleaseAtMiB:
		return fmt.Errorf("trim threshold %d MiB must be above 0 and below the release threshold %d MiB", p.TrimAtMiB, p.ReleaseAtMiB)
	case p.Poll < time.Second:
		return fmt.Errorf("poll interval %s shorter than a second", p.Poll)
	}
	return nil
}

// pressureFrom returns the settings to use given the environment's value
// of pressureEnv (set reports whether it is there): ok false means leave
// WebKit's defaults.
func pressureFrom(value string, set bool) (p Pressure, ok bool, err error) {
	if !set || strings.TrimSpace(value) == "" {
		return WindowPressure, true, nil
	}
	v := strings.TrimSpace(value)
	if strings.EqualFold(v, "off") {
		return Pressure{}, false, nil
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		// The value is logged: a few characters of it, once (strconv's
		// error would quote it whole again), whatever was pasted there.
		if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
			err = ne.Err
		}
		return WindowPressure, true, fmt.Errorf("%s=%q: want a number of MiB or off: %w", pressureEnv, shortened(value), err)
	}
	if n == 0 { // "0", "00": off
		return Pressure{}, false, nil
	}
	p = Pressure{ReleaseAtMiB: uint(n), TrimAtMiB: uint(n) * 11 / 12, Poll: WindowPressure.Poll}
	if err := p.valid(); err != nil {
		return WindowPressure, true, fmt.Errorf("%s=%q: %w", pressureEnv, shortened(value), err)
	}
	return p, true, nil
}

// shortened is value cut to its first 16 bytes (a number of MiB needs
// fewer), for the log.
func shortened(value string) string {
	const max = 16
	if len(value) <= max {
		return value
	}
	return value[:max] + "…"
}
