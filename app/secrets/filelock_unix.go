//go:build unix

package secrets

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile waits for the exclusive lock on f (flock: released when f is
// closed, or when the process dies).
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
