//go:build unix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Lock waits for the exclusive lock on f.
func Lock(f *os.File) error { return flock(f, unix.LOCK_EX) }

// TryLock takes the exclusive lock on f, or returns ErrLocked at once.
func TryLock(f *os.File) error { return flock(f, unix.LOCK_EX|unix.LOCK_NB) }

// Unlock releases the lock (closing f does too).
func Unlock(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return ErrLocked
		}
		return &os.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
}
