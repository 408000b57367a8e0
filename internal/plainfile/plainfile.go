// Package plainfile opens the files Juncture reads by path where a person
// or another program can put something else: the keys file, mcp.json, the
// data folder's lock file, a database's write-ahead log and migration
// backups.
//
// Guarantees:
//   - Opening never waits on what is at the path and never makes it the
//     process's controlling terminal: on Unix every open adds O_NONBLOCK
//     (a named pipe with no writer, a terminal waiting for a carrier) and
//     O_NOCTTY (a terminal device); on a regular file neither changes
//     anything. Elsewhere no flag is added (Windows has neither pipes at
//     file paths nor controlling terminals).
//   - The file that was opened is judged, not what an earlier Stat saw:
//     anything but a regular file (a FIFO, a device, a socket, a
//     directory) is closed and refused with an error wrapping
//     ErrNotRegular that says what it is.
//   - ReadFile never reads more than its limit: a larger file is refused
//     (ErrTooLarge), not read whole into memory.
//
// A missing file is the os package's error (errors.Is fs.ErrNotExist).
// Callers wrap the errors with what they were reading: "reading
// secrets.json: not a regular file (a named pipe)".
package plainfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular: what is at the path is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the file is larger than the reader's limit.
var ErrTooLarge = errors.New("too large")

// Open opens path for reading (OpenFile with os.O_RDONLY).
func Open(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY, 0) }

// OpenFile is os.OpenFile with the flags that keep the open from blocking
// or taking a terminal (Flags), refusing what is not a regular file.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|Flags, perm)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, NotRegular(st.Mode())
	}
	return f, nil
}

// ReadFile reads the regular file at path, at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, fmt.Errorf("%w (larger than %s)", ErrTooLarge, size(limit))
	}
	return data, err
}

// NotRegular is the refusal of a file of mode m (ErrNotRegular, with what
// the file is).
func NotRegular(m fs.FileMode) error {
	what := "a " + m.Type().String()
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m.IsDir():
		what = "a folder"
	}
	return fmt.Errorf("%w (%s)", ErrNotRegular, what)
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
