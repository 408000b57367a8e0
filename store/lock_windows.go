//go:build windows

package store

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is where the locked byte range starts: far past the pid the
// file holds, so a second opener can still read who holds it (a locked
// range cannot be read through another handle).
const lockOffset = 1 << 40

// noFollow: creating a symlink needs privileges on Windows; the Stat
// check after opening still refuses anything but a plain file.
const noFollow = 0

func tryLock(f *os.File) error {
	ol := &windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return errLocked
	}
	return &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
}

func unlock(f *os.File) {
	ol := &windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}

// ownedByMe: the user's temp and data folders are already private on
// Windows (their ACLs), and mode bits mean little there.
func ownedByMe(fs.FileInfo) bool { return true }

const privateMode = false
