//go:build !unix && !windows

package secrets

import "os"

// lockFile: no file lock here; the in-process mutex alone orders writes.
func lockFile(*os.File) error { return nil }
