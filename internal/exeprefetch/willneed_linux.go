package exeprefetch

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

func willNeed(f *os.File) error {
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_WILLNEED); err != nil {
		return fmt.Errorf("advising the kernel to read %s: %w", f.Name(), err)
	}
	return nil
}
