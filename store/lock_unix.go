//go:build unix

package store

import (
	"io/fs"
	"os"
	"syscall"
)

// noFollow makes opening a lock file that is a symlink fail (ELOOP).
const noFollow = syscall.O_NOFOLLOW

// ownedByMe says whether fi (from Lstat) belongs to this process's user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// privateMode is whether chmod to 0700/0600 means anything here.
const privateMode = true
