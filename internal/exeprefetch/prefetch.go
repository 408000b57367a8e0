package exeprefetch

import "os"

// done is closed once init advised the kernel about the executable (or
// could not: initErr); tests wait on it.
var (
	done    = make(chan struct{})
	initErr error
)

func init() {
	// A goroutine: giving the advice allocates and queues the pages, a few
	// ms for ~45 MiB, which the inits after this one need not wait for.
	go func() {
		defer close(done)
		initErr = File(selfExe) // best effort: a launch without it only reads the binary as it faults
	}()
}

// selfExe is the running binary; /proc/self/exe opens it even when its
// path was replaced since (an update moved a new binary in place).
const selfExe = "/proc/self/exe"

// File advises the kernel that the whole of the file at path is needed
// soon (it reads it into the page cache in the background, where the
// platform supports it). It returns an error when the file cannot be
// opened or advised.
func File(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return willNeed(f)
}
