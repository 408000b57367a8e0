// Package buildinfo holds what the linker stamped into this binary: its
// version, the commit it was built from and when. The Makefile sets them with
//
//	-ldflags "-X github.com/juncture-app/juncture/internal/buildinfo.Version=0.2.0 ..."
//
// A plain `go build` leaves the defaults, which say so rather than guess.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Set at link time (-ldflags -X); strings because -X only sets strings.
var (
	Version = "0.0.0-dev"
	Commit  = ""
	Date    = ""
	// UpdateKey is the release feed's ed25519 public key, base64 (standard
	// encoding). Empty: this build cannot verify updates and does not offer
	// them (a source build updates by rebuilding).
	UpdateKey = ""
)

// String is the line `juncture --version` prints.
func String() string {
	commit, date := Commit, Date
	if commit == "" {
		commit = vcsRevision()
	}
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("juncture %s (commit %s, built %s)", Version, commit, date)
}

// vcsRevision is the commit `go build` recorded itself, when it did
// (-buildvcs=false, the repository's default GOFLAGS, records none).
func vcsRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return s.Value
		}
	}
	return ""
}
