package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/juncture-app/juncture/internal/filelock"
	"github.com/juncture-app/juncture/internal/plainfile"
)

// ErrInUse is matched (errors.Is) by the error Open returns when another
// Juncture (a window, or `juncture serve`) holds the data folder.
var ErrInUse = errors.New("the data folder is in use by another Juncture")

// InUseError is Open's refusal of a database another process holds. Nothing
// was read or written: crash recovery and migrations run only under the
// lock, so a second Juncture never "recovers" the first one's live runs.
type InUseError struct {
	Dir string // the data folder
	PID int    // the holder's process id, when the lock file says (0: unknown)
}

func (e *InUseError) Error() string {
	who := "another Juncture"
	if e.PID > 0 {
		who = fmt.Sprintf("another Juncture (process %d)", e.PID)
	}
	return fmt.Sprintf("the data folder %s is in use by %s: a window or `juncture serve` is already running on it. "+
		"Close it first (or use it); nothing was changed.", e.Dir, who)
}

// Is makes errors.Is(err, ErrInUse) true.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// errLocked is what tryLock returns when another holder has the lock.
var errLocked = errors.New("locked by another process")

// tryLock takes the data folder's lock on f, or returns errLocked.
func tryLock(f *os.File) error {
	if err := filelock.TryLock(f); !errors.Is(err, filelock.ErrLocked) {
		return err
	}
	return errLocked
}

// LockPath is the lock file Open holds beside the database for as long as
// it is open.
func LockPath(dbPath string) string { return dbPath + ".lock" }

// fileLock is an exclusive advisory lock on a file (flock on Unix,
// LockFileEx on Windows). The operating system releases it when the process
// dies, however it dies, so a stale lock never outlives its holder. The
// descriptor is close-on-exec: a command a tool started cannot inherit it.
type fileLock struct{ f *os.File }

// acquireLock takes the lock on path without waiting, creating the file
// (0600) if needed, and writes this process's id into it for the message a
// second opener shows. It returns errLocked when someone else holds it. A
// lock path that is a symlink or not a regular file is refused: truncating
// it would rewrite whatever it points to. The open neither waits on a FIFO
// nor takes a terminal there (plainfile.Flags).
func acquireLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow|plainfile.Flags, fileMode)
	if err != nil {
		return nil, fmt.Errorf("opening the lock file (it must be a plain file, not a symlink): %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("the lock file %s is not a plain file; remove it and try again", path)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	// Informational only (the lock is the truth): a failure is ignored.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &fileLock{f: f}, nil
}

// release unlocks and closes. Closing alone releases the lock too; the
// explicit unlock states it.
func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	filelock.Unlock(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}

// lockHolder reads the process id a holder wrote into the lock file (0 if
// unknown, or if what is at the path now is not a small regular file).
func lockHolder(path string) int {
	b, err := plainfile.ReadFile(path, 64)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// lockDatabase takes the data folder's lock for the database at path.
func lockDatabase(path string) (*fileLock, error) {
	lp := LockPath(path)
	l, err := acquireLock(lp)
	if errors.Is(err, errLocked) {
		return nil, &InUseError{Dir: filepath.Dir(path), PID: lockHolder(lp)}
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: taking the data folder's lock: %w", path, err)
	}
	return l, nil
}
