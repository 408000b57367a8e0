//go:build linux

package secrets

import (
	"errors"
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// nextData is where the next data of f lies at or after off, within the
// size it had when opened: [start, end), start == size when only holes
// are left. f is left positioned at start. Linux says where a file's holes
// are (SEEK_DATA, SEEK_HOLE), so a sparse file costs only its data; a file
// system that cannot say, or a file that cannot seek, is all data.
func nextData(f backupFile, off, size int64) (start, end int64, err error) {
	sk, ok := f.(io.Seeker)
	if !ok {
		return off, size, nil
	}
	start, err = sk.Seek(off, unix.SEEK_DATA)
	switch {
	case errors.Is(err, syscall.ENXIO):
		return size, size, nil // holes to the end
	case err != nil:
		start, end = off, size // the rest is read as data
	default:
		if end, err = sk.Seek(start, unix.SEEK_HOLE); err != nil {
			end = size
		}
		start, end = min(start, size), min(end, size)
	}
	if _, err := sk.Seek(start, io.SeekStart); err != nil {
		return 0, 0, err
	}
	return start, end, nil
}
