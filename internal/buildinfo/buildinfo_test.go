package buildinfo

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The Makefile's -ldflags -X stamps reach the line --version prints.
func TestVersionStampedAtLinkTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "printversion")
	const pkg = "github.com/juncture-app/juncture/internal/buildinfo"
	ldflags := "-X " + pkg + ".Version=9.8.7 -X " + pkg + ".Commit=abc1234 -X " + pkg + ".Date=2026-12-02T01:00:00Z"
	build := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "./testdata/printversion")
	build.Env = append(build.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "juncture 9.8.7 (commit abc1234, built 2026-12-02T01:00:00Z)"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("--version printed %q, want %q", got, want)
	}
}

func TestVersionUnstamped(t *testing.T) {
	if got := String(); !strings.HasPrefix(got, "juncture 0.0.0-dev (commit ") || !strings.Contains(got, "built unknown") {
		t.Errorf("an unstamped build says %q", got)
	}
}
