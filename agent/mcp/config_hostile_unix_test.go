//go:build unix

package mcp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
)

// TestReadConfigRefusesAFileThatIsNotOne: the MCP configuration is read
// while the app starts, before the window shows. A FIFO at its path (or a
// link to one) held the start forever in open, and a huge file (a link to
// a disk image, a runaway writer) was read whole into memory. Both are
// refused at once with an error naming the file, and no server runs.
func TestReadConfigRefusesAFileThatIsNotOne(t *testing.T) {
	dir := t.TempDir()
	fifo := testkit.Fifo(t, filepath.Join(dir, "fifo.json"))
	huge := testkit.SparseFile(t, filepath.Join(dir, "huge.json"), 64<<20)
	for _, path := range []string{fifo, huge} {
		err := testkit.ReturnsWithin(t, "ReadConfig("+filepath.Base(path)+")", fifo, func() error {
			_, _, err := ReadConfig(path)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), filepath.Base(path)) || !strings.Contains(err.Error(), "not a configuration file") {
			t.Errorf("ReadConfig(%s) = %v, want it refused as not a configuration file", filepath.Base(path), err)
		}
	}
}

// TestReadConfigFileJudgesWhatItOpened: a FIFO swapped in between a
// check of the path and its open was opened (blocking until a writer
// came) and read. The open itself does not block and the file it opened is
// judged: refused as not a regular file.
func TestReadConfigFileJudgesWhatItOpened(t *testing.T) {
	fifo := testkit.Fifo(t, filepath.Join(t.TempDir(), "mcp.json"))
	err := testkit.ReturnsWithin(t, "readConfigFile(fifo)", fifo, func() error {
		_, err := readConfigFile(fifo)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("readConfigFile(fifo) = %v, want it refused as not a regular file", err)
	}
}
