//go:build !linux

package exeprefetch

import "os"

// willNeed does nothing where there is no posix_fadvise: macOS and Windows
// start from the pages as faulted.
func willNeed(*os.File) error { return nil }
