//go:build windows

package secrets

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile waits for the exclusive lock on f's first byte (released when
// f is closed, or when the process dies).
func lockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol)
}
