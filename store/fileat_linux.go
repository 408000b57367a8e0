//go:build linux

package store

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// pinFile is what is at path (with follow false, a symlink there is the
// link itself), judged on a descriptor of it rather than on a Stat by
// path, and kept open until pin is closed: while it is, the file's inode
// number cannot pass to another file, so a later Stat of the path that
// finds the same file is the same file. The descriptor is O_PATH: it
// opens nothing for reading, so a named pipe or a device never holds it;
// and closing it keeps the POSIX locks the process holds on the file,
// where closing an ordinary descriptor drops them all, SQLite's too (the
// file may be a database open elsewhere in the process).
func pinFile(path string, follow bool) (pin io.Closer, fi fs.FileInfo, err error) {
	flags := unix.O_PATH | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
