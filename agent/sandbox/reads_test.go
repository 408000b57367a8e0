package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadSet: the program's folder (and the lib beside a bin), its PATH,
// the node_modules holding a script argument and the listed folders are
// readable; the home folder and what holds it never are, even when the
// program, its PATH or a script lies there directly.
func TestReadSet(t *testing.T) {
	home := t.TempDir()
	prefix := filepath.Join(home, "node")
	mods := filepath.Join(home, "srv", "node_modules")
	for _, d := range []string{filepath.Join(prefix, "bin"), filepath.Join(prefix, "lib"), filepath.Join(mods, "pkg", "dist")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	node := filepath.Join(prefix, "bin", "node")
	script := filepath.Join(mods, "pkg", "dist", "index.js")
	loose := filepath.Join(home, "tool.py")
	for _, f := range []string{node, script, loose} {
		if err := os.WriteFile(f, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	listed := t.TempDir()
	cmd := exec.Command(node, script, loose, "-v", home)
	cmd.Env = []string{"HOME=" + home, "PATH=" + home + ":relative:/usr/bin"}
	r := readSet(cmd, Policy{Read: []string{listed}}.normalized())
	real := func(p string) string { return resolved(p) }
	for _, want := range []string{"/usr", "/etc", real(filepath.Join(prefix, "bin")), real(filepath.Join(prefix, "lib")), real(mods), real(listed)} {
		if !slices.Contains(r.dirs, want) {
			t.Errorf("not readable: %s (dirs %q)", want, r.dirs)
		}
	}
	if !slices.Contains(r.files, real(loose)) {
		t.Errorf("the script in the home folder is not readable as a file: %q", r.files)
	}
	for _, d := range r.dirs {
		if coversHome(d, []string{real(home)}) {
			t.Errorf("readable folder %s holds the home folder", d)
		}
	}
}

func TestToolRoot(t *testing.T) {
	homes := []string{"/home/me"}
	for dir, want := range map[string]string{
		"/home/me/.pyenv/shims":               "/home/me/.pyenv",
		"/home/me/.nvm/versions/node/v20/bin": "/home/me/.nvm",
		"/home/me/.cargo/bin":                 "/home/me/.rustup",
		"/home/me/.local/bin":                 "",
		"/home/me/.ssh":                       "",
		"/home/me/bin":                        "",
		"/home/me":                            "",
		"/usr/bin":                            "",
		"/home/me/.config/something/bin":      "",
	} {
		if got := toolRoot(dir, homes); got != want {
			t.Errorf("toolRoot(%s) = %q, want %q", dir, got, want)
		}
	}
}
