package store

import (
	"errors"
	"fmt"
	"os"
)

// The history holds everything a person wrote (and, in an old database,
// plaintext keys): its folder is 0700 and every file Juncture or SQLite
// creates in it is 0600, whatever the umask and whatever the folder's mode
// was when an older version (or the person) created it.
const (
	dirMode  os.FileMode = 0o700
	fileMode os.FileMode = 0o600
)

// PrivateDir creates dir (and its parents) as 0700 if missing, and makes an
// existing dir 0700 if it belongs to this user and is not already. A
// symlinked folder is followed (a person may keep the history elsewhere);
// one owned by someone else is left as it is.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return err
	}
	if !privateMode {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if fi.Mode().Perm() != dirMode && ownedByMe(fi) {
		return os.Chmod(dir, dirMode)
	}
	return nil
}

// PrivateFile makes an existing regular file 0600 if it is this user's. A
// missing file is no error; a symlink is left alone (its target may be
// anywhere, and chmod would follow it).
func PrivateFile(path string) error {
	if !privateMode {
		return nil
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() == fileMode || !ownedByMe(fi) {
		return nil
	}
	return os.Chmod(path, fileMode)
}

// privateDatabaseFiles makes the database's existing files 0600: the file,
// its -wal, -shm and -journal, the markers, and the backups made before
// migrations (<name>.pre-v*.bak). It also creates an empty database file
// as 0600 when none exists, because SQLite creates a new database with
// 0644 (less the umask) and gives the -wal and -shm the database's mode.
func privateDatabaseFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return err
	}
	if !privateMode {
		return nil
	}
	names := []string{path, path + "-wal", path + "-shm", path + "-journal", openMarker(path), LockPath(path)}
	var errs []error
	for _, p := range append(names, Backups(path)...) {
		errs = append(errs, PrivateFile(p))
	}
	return errors.Join(errs...)
}
