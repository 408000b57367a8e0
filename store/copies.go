package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Read-only copies (OpenReadOnlyCopy) hold a whole history, and an old
// database's plaintext keys: they live in one Juncture-owned folder of the
// temp folder (0700), each in its own copy-* folder whose owner.lock the
// owning process holds. A copy whose lock is free belongs to a process that
// is gone (killed, crashed): the next start removes it (RemoveStaleCopies).

const (
	copyPrefix   = "copy-"
	copyLockName = "owner.lock"
)

// copyGrace is how long a new copy folder is left alone whatever its lock
// says: the moment between creating the folder and locking it. A variable
// for the tests.
var copyGrace = time.Minute

// CopiesDir is the folder read-only copies live in:
// <temp>/juncture-copies-<uid> (one per user: the temp folder is shared).
func CopiesDir() string {
	name := "juncture-copies"
	if uid := os.Getuid(); uid >= 0 {
		name += "-" + strconv.Itoa(uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// copiesDir creates CopiesDir (0700) and makes sure it is a real folder of
// this user: in a shared temp folder someone else could have made it first,
// or put a symlink there, to read or redirect the copies.
func copiesDir() (string, error) {
	dir := CopiesDir()
	if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() || !ownedByMe(fi) {
		return "", fmt.Errorf("%s is not a folder of this user (a symlink, or made by someone else); remove it and try again", dir)
	}
	if privateMode && fi.Mode().Perm() != dirMode {
		if err := os.Chmod(dir, dirMode); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// newCopyDir makes a fresh copy folder and takes its owner lock.
func newCopyDir() (string, *fileLock, error) {
	base, err := copiesDir()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp(base, copyPrefix)
	if err != nil {
		return "", nil, err
	}
	lk, err := acquireLock(filepath.Join(dir, copyLockName))
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, lk, nil
}

// RemoveStaleCopies removes the read-only copies whose owning process is
// gone, and returns how many it removed. Copies of running sessions (their
// lock is held) are left alone. The app calls it at every start.
func RemoveStaleCopies() (int, error) {
	base := CopiesDir()
	fi, err := os.Lstat(base)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !fi.IsDir() || !ownedByMe(fi) {
		return 0, nil // not ours: never delete through it
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), copyPrefix) {
			continue
		}
		dir := filepath.Join(base, e.Name())
		stale, err := staleCopy(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !stale {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// staleCopy says whether the copy folder dir has no living owner. A folder
// younger than copyGrace is never stale: its creator may not have taken its
// lock yet.
func staleCopy(dir string) (bool, error) {
	fi, err := os.Stat(dir)
	if err != nil || time.Since(fi.ModTime()) < copyGrace {
		return false, nil
	}
	lk, err := acquireLock(filepath.Join(dir, copyLockName))
	switch {
	case errors.Is(err, errLocked):
		return false, nil
	case err != nil:
		return false, err
	}
	// Released before removing: Windows cannot delete an open file. Nobody
	// takes a copy's lock but its creator and this sweep.
	return true, lk.release()
}
