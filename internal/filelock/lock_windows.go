//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// offset is where the locked byte starts: far past what the file holds,
// so a second opener can still read it (a locked range cannot be read
// through another handle).
const offset = 1 << 40

func overlapped() *windows.Overlapped {
	return &windows.Overlapped{Offset: uint32(offset & 0xffffffff), OffsetHigh: uint32(offset >> 32)}
}

// Lock waits for the exclusive lock on f.
func Lock(f *os.File) error { return lock(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }

// TryLock takes the exclusive lock on f, or returns ErrLocked at once.
func TryLock(f *os.File) error {
	return lock(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
}

// Unlock releases the lock (closing f does too).
func Unlock(f *os.File) { _ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, overlapped()) }

func lock(f *os.File, flags uint32) error {
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, overlapped())
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return ErrLocked
	}
	return &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
}
