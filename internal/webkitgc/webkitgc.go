// Package webkitgc makes the desktop window's JavaScript collector on Linux
// keep the page's garbage to a bounded amount instead of letting it pile up
// for minutes.
//
// WebKitGTK runs the page's JavaScript in WebKitWebProcess, whose
// JavaScriptCore sizes its heap by the machine's RAM: at 16 GB and above
// (Options::aggressiveHeapThresholdInMB) it grows the heap "aggressively",
// up to about four times what the last full collection kept
// (heapGrowthMaxIncrease 3 + 1) and with a nursery of up to 8 × 32 MiB
// (maxEdenSizeForRateLimitingMultiplier), to go faster on big machines.
// The window's page lives for hours and makes garbage with every turn
// (React's renders, the event stream's frames): on a 24 GB machine the web
// process's memory not of files rose by ~100 MiB between full collections
// and fell back after each (scripts/bench-soak.sh, bench/README.md), while
// a full collection keeps ~15 MiB of JavaScript objects. Below 16 GB,
// JavaScriptCore grows a heap of this size by a factor of two and collects
// the old generation when it has doubled.
//
// Configure puts the web process on the heuristics JavaScriptCore ships
// for machines with less memory, a little tighter, by the environment
// variables it reads its options from (Settings); the web process
// inherits the app's environment, so Configure must run before the
// window's web view starts it (before wails.Run). The collector stays the
// same, generational and concurrent; it collects the old generation
// sooner. In 500-turn soaks (scripts/bench-soak.sh side by side, load
// 5.5–17, 2026-12-03) the web process's memory not of files from turn 50
// was 114–145 MiB (median 126) where it otherwise went 139–302 (median
// 213) with no page reload, and 106–146 against 142–314 with a reload
// every 25 turns, for the same CPU time (55.2 s against 54.6 s per 100
// turns; 71.8 against 72.4) and no longer pauses (bench/README.md). A
// variable already in
// the environment is left as it is: a person's or a developer's setting
// wins. The variables stay set for the app's life, since WebKit starts a
// web process again after a crash: the agent's commands and MCP servers
// do not see them (they get an allowlisted environment, agent/tools), but
// a program opened for the person through xdg-open (a link's browser)
// does, and a WebKitGTK browser started that way collects the same way.
//
// The collector's pace is not all a day of turns leaves behind: compiled
// code, JavaScriptCore's blocks and WebCore's caches add a few MiB per 100
// turns that only a release under memory pressure gives back, and WebKit
// feels that pressure on its own only at half of the machine's RAM or of
// 3 GB, whichever is less (caches alone at a third).
// ConfigurePressure (pressure.go; WebKitGTK desktop builds) sets WebKit's
// memory-pressure handler for the window's web process to release above a
// bound of its own footprint (WindowPressure). That setting is a
// construct-only property of a WebKitWebContext and Wails v2 makes its view
// on WebKit's default context with none, so ConfigurePressure puts a
// constructor in front of the context class's that fills it in.
//
// Other platforms are unchanged: macOS starts WKWebView's web process
// through launchd, without the app's environment, and Windows' WebView2
// is Chromium's V8.
package webkitgc

import "fmt"

// Setting is one JavaScriptCore option, as the environment variable the
// web process reads it from.
type Setting struct{ Name, Value string }

// Settings are what Configure sets:
//   - aggressiveHeapThresholdInMB above any machine's RAM (1 TiB): the
//     heap grows as on a machine with less than 16 GB, by a factor (below)
//     instead of up to 4× with a nursery of up to 256 MiB;
//   - smallHeapGrowthFactor 1.5 (2 by default): the heap may grow to 1.5×
//     what the last full collection kept before the old generation is
//     collected again;
//   - largeHeapSize 16 MiB (32): the least the heap grows by between
//     collections, which at the page's ~15 MiB of live objects otherwise
//     sets the pace.
var Settings = []Setting{
	{"JSC_aggressiveHeapThresholdInMB", "1048576"},
	{"JSC_smallHeapGrowthFactor", "1.5"},
	{"JSC_largeHeapSize", "16777216"},
}

// apply sets each of Settings through set unless lookup finds it set, and
// returns the ones it set.
func apply(lookup func(string) (string, bool), set func(k, v string) error) ([]string, error) {
	var done []string
	for _, st := range Settings {
		if _, ok := lookup(st.Name); ok {
			continue
		}
		if err := set(st.Name, st.Value); err != nil {
			return done, fmt.Errorf("setting %s for the window's web process: %w", st.Name, err)
		}
		done = append(done, st.Name+"="+st.Value)
	}
	return done, nil
}
