package sandbox

import "strings"

// Job Object limit flags (winnt.h), spelled out here so that the plan is
// built and tested on every system.
const (
	jobLimitActiveProcess     = 0x00000008 // JOB_OBJECT_LIMIT_ACTIVE_PROCESS
	jobLimitDieOnException    = 0x00000400 // JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
	jobLimitBreakawayOK       = 0x00000800 // JOB_OBJECT_LIMIT_BREAKAWAY_OK: never set
	jobLimitSilentBreakawayOK = 0x00001000 // JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK: never set
	jobLimitKillOnJobClose    = 0x00002000 // JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
)

// WindowsActiveProcesses bounds how many processes a confined program and
// what it starts may run at once on Windows (a build runs many; a fork
// bomb is stopped).
const WindowsActiveProcesses = 512

// Windows mandatory integrity: the program runs at low integrity, which
// may not write objects labeled medium (the user's files, by default);
// its writable folders are labeled low so that it may write there.
const (
	lowIntegritySID = "S-1-16-4096"
	// lowLabelSDDL is the label put on a writable folder: low integrity,
	// inherited by files and folders below (OICI), no write up (NW).
	lowLabelSDDL = "S:(ML;OICI;NW;;;LW)"
)

// WindowsJob is the Job Object every confined program (and, on Windows,
// every command and server) runs in: ended when Juncture closes the job
// or exits (kill on close), no way out of it (no breakaway flag), at most
// WindowsActiveProcesses processes, no error dialog left hanging.
func WindowsJob() (limitFlags uint32, activeProcesses uint32) {
	return jobLimitKillOnJobClose | jobLimitActiveProcess | jobLimitDieOnException, WindowsActiveProcesses
}

// windowsPlan is how p is held on Windows: a low-integrity token for the
// program, the writable folders (and the private temporary folder)
// labeled low, and what the Status says. Reads and the network are not
// confined there; the Status says so.
type windowsPlan struct {
	integritySID string
	labelSDDL    string
	label        []string // folders labeled low integrity (writable)
	status       Status
}

func planWindows(p Policy, tmp string) windowsPlan {
	label := append(append([]string{}, p.Write...), tmp)
	why := []string{"reads are not confined on Windows"}
	if p.Network != NetAny {
		why = append(why, "network not confined on Windows (no filter for a low-integrity program)")
	}
	why = append(why, "low-integrity folders such as AppData\\LocalLow stay writable")
	return windowsPlan{
		integritySID: lowIntegritySID,
		labelSDDL:    lowLabelSDDL,
		label:        label,
		status: Status{
			Mechanism: WindowsToken, Write: p.Write, Network: "any",
			Reads:  "anything you can read",
			Reason: strings.Join(why, "; "),
		},
	}
}
