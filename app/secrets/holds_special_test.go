//go:build unix

package secrets

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFileHoldsRefusesWhatIsNotAFile: a backup's name given to a FIFO, a
// device, or a link to one, is refused at once, not read or waited on.
func TestFileHoldsRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.bak")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	linkFifo := filepath.Join(dir, "link-fifo.bak")
	linkZero := filepath.Join(dir, "link-zero.bak")
	if os.Symlink(fifo, linkFifo) != nil || os.Symlink("/dev/zero", linkZero) != nil {
		t.Skip("no symlinks here")
	}
	for _, p := range []string{fifo, linkFifo, linkZero, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := fileHolds(p, []string{"sk-never"}); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: read as a backup, want refused", p)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: fileHolds still waiting after 3 s", p)
		}
	}
}
