// Package filelock takes the operating system's exclusive lock on an open
// file: flock on Unix, LockFileEx on Windows. The data folder's lock
// (store) and the keys file's read-modify-write (app/secrets) both use it.
//
// Guarantees: the lock is the whole file's on Unix and one byte far past
// any content on Windows (so the file can still be read through another
// handle, as the data folder's lock is for its holder's pid); the system
// releases it when the file is closed or the process dies, so a crash
// never leaves it held; an interrupted wait (EINTR) is taken again.
package filelock

import "errors"

// ErrLocked: TryLock found the lock held by someone else.
var ErrLocked = errors.New("filelock: held by another process")
