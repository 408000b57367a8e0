//go:build !unix && !windows

package filelock

import "os"

// Lock: no file locks on this system; the callers' in-process mutexes
// alone order their writes.
func Lock(*os.File) error { return nil }

// TryLock: see Lock.
func TryLock(*os.File) error { return nil }

// Unlock: see Lock.
func Unlock(*os.File) {}
