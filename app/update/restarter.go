package update

import "fmt"

// Restarter is what the desktop window does after an update: start the
// new binary on openURL and quit (main.go).
type Restarter interface {
	Restart(exe, openURL string) error
}

// RestartInto is Prefs.Apply's callback for a window that restarts (r
// nil: none, the new binary starts with the next launch): it starts the
// installed version on openURL and says so, or says why it could not.
func RestartInto(r Restarter, openURL string) func(exe, version string, st *UpdateStatus) {
	return func(exe, version string, st *UpdateStatus) {
		if r == nil {
			return
		}
		if err := r.Restart(exe, openURL); err != nil {
			st.Message = fmt.Sprintf("Version %s is installed, but restarting failed (%v): close and open Juncture.", version, err)
			return
		}
		st.Restarting = true
	}
}
