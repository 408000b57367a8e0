//go:build windows

package store

import (
	"io/fs"
)

// noFollow: creating a symlink needs privileges on Windows; the Stat
// check after opening still refuses anything but a plain file.
const noFollow = 0

// ownedByMe: the user's temp and data folders are already private on
// Windows (their ACLs), and mode bits mean little there.
func ownedByMe(fs.FileInfo) bool { return true }

const privateMode = false
