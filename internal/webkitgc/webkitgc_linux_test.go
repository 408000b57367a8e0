//go:build linux

package webkitgc

import (
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Configure puts the options in the environment a child process (the web
// process; here a shell) starts with, and leaves a value already there.
func TestConfigureReachesChildren(t *testing.T) {
	for _, st := range Settings {
		t.Setenv(st.Name, "") // restored after the test
		os.Unsetenv(st.Name)
	}
	t.Setenv(Settings[1].Name, "3")
	if err := Configure(slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	for i, st := range Settings {
		out, err := exec.Command("sh", "-c", "printf %s \"$"+st.Name+"\"").Output()
		want := st.Value
		if i == 1 {
			want = "3"
		}
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("a child sees %s=%q (%v), want %q", st.Name, out, err, want)
		}
	}
}
