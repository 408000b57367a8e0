package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestConfigSandboxRefusesHomeByAnyName: a "write" or "read" entry that is
// the home folder written as an absolute path, a folder above it, or a
// link that leads to it grants everything as surely as "~" does, and is
// refused the same way; a server whose link is pointed at home after the
// file was read does not start with it.
func TestConfigSandboxRefusesHomeByAnyName(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	link := filepath.Join(t.TempDir(), "notes")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	entries := []string{home, home + "/", filepath.Dir(home), link}
	for _, list := range []string{"write", "read"} {
		for _, e := range entries {
			server := `{"command":"x","sandbox":{"` + list + `":[` + strconv.Quote(e) + `]}}`
			_, err := ParseConfig([]byte(`{"mcpServers":{"s":` + server + `}}`))
			if err == nil || !strings.Contains(err.Error(), "not the whole disk or home folder") {
				t.Errorf("%s %q: %v", list, e, err)
			}
		}
	}
	// A link that was a plain folder when mcp.json was read.
	later := filepath.Join(t.TempDir(), "later")
	if err := os.Mkdir(later, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseConfig([]byte(`{"mcpServers":{"s":{"command":"x","sandbox":{"write":[` + strconv.Quote(later) + `]}}}}`)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(later); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, later); err != nil {
		t.Fatal(err)
	}
	s := &supervisor{cfg: ServerConfig{Command: "/bin/true", Sandbox: &ServerSandbox{Write: []string{later}}}, m: &Manager{}}
	cmd := exec.Command("/bin/true")
	cmd.Env = []string{}
	st, cleanup, err := s.confine(cmd)
	cleanup()
	if err == nil || !strings.Contains(err.Error(), "home folder") {
		t.Errorf("confine with a link to home: %v (%s)", err, st)
	}
}
