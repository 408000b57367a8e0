package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// TestWindowsJob: the Job Object ends everything with Juncture, bounds
// the process count, and never lets a process break away.
func TestWindowsJob(t *testing.T) {
	flags, procs := WindowsJob()
	if flags&jobLimitKillOnJobClose == 0 || flags&jobLimitActiveProcess == 0 || procs == 0 {
		t.Errorf("flags %#x, processes %d", flags, procs)
	}
	if flags&(jobLimitBreakawayOK|jobLimitSilentBreakawayOK) != 0 {
		t.Errorf("flags %#x allow breaking away", flags)
	}
}

// TestPlanWindows: the writable folders and the private temporary folder
// are labeled low integrity, the program gets a low-integrity token, and
// the Status says what is not confined there (reads, the network).
func TestPlanWindows(t *testing.T) {
	pl := planWindows(Policy{Write: []string{`C:\ws`}, Network: NetNone}, `C:\tmp\j`)
	if !slices.Equal(pl.label, []string{`C:\ws`, `C:\tmp\j`}) || pl.integritySID != "S-1-16-4096" || pl.labelSDDL != "S:(ML;OICI;NW;;;LW)" {
		t.Errorf("plan %+v", pl)
	}
	got := pl.status.String()
	for _, want := range []string{"sandbox: low-integrity token (writes: C:\\ws", "network: any", "reads: anything you can read",
		"reads are not confined on Windows", "network not confined on Windows"} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q lacks %q", got, want)
		}
	}
	if any := planWindows(Policy{Network: NetAny}, `C:\t`).status.String(); strings.Contains(any, "network not confined") {
		t.Errorf("network any is not a shortfall: %q", any)
	}
}
