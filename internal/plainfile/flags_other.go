//go:build !unix

package plainfile

// Flags are none here: Windows (and the other non-Unix systems) have no
// named pipes at file paths and no controlling terminal.
const Flags = 0
