//go:build !linux

package store

import (
	"io"
	"io/fs"
	"os"
)

type noPin struct{}

func (noPin) Close() error { return nil }

// pinFile is what is at path (with follow false, a symlink there is the
// link itself). Without Linux's O_PATH it is a Stat by path, and nothing
// is held: opening and closing a descriptor of the file would drop every
// POSIX lock the process holds on it, SQLite's too (the file may be a
// database open elsewhere in the process). openFileWith's check after
// SQLite's open still compares the file then at path with this one (a
// file put there in its place may reuse its inode number: only a regular
// file can pass for it).
func pinFile(path string, follow bool) (pin io.Closer, fi fs.FileInfo, err error) {
	fi, err = statAt(path, follow)
	if err != nil {
		return nil, nil, err
	}
	// Windows reads a Stat's file identity lazily, from the path, when
	// SameFile first needs it: read now, it is the file's seen here, not
	// whatever the path names at the check after SQLite's open (which then
	// compared that file with itself). A cheap no-op elsewhere.
	os.SameFile(fi, fi)
	return noPin{}, fi, nil
}
