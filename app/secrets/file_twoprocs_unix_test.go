//go:build unix

package secrets

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFileStoreTwoProcessesKeepEveryKey: the keys file is one per user
// (the configuration folder), not per data folder, and a second instance
// writes it too (a read-only copy's settings save, an MCP sign-in's
// token refresh). Each Set reads the file, adds its key and renames a new
// file over it; two processes doing so at once each wrote the map they
// had read, and the other's key was lost. Two processes setting 40 keys
// each leave all 80.
func TestFileStoreTwoProcessesKeepEveryKey(t *testing.T) {
	if p := os.Getenv("JUNCTURE_TWO_CHILD"); p != "" {
		s := NewFileStore(p)
		for i := range 40 {
			if err := s.Set(fmt.Sprintf("acct-%d-%d", os.Getpid(), i), "sk-value"); err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
		}
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "secrets.json")
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFileStoreTwoProcessesKeepEveryKey$")
		cmd.Env = append(os.Environ(), "JUNCTURE_TWO_CHILD="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 80 {
		t.Errorf("the keys file holds %d keys after two processes set 40 each, want 80", len(m))
	}
}
