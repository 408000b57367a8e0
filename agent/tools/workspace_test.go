package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	outside := t.TempDir()
	outsideReal, _ := filepath.EvalSymlinks(outside)
	writeFiles(t, root, map[string]string{"docs/a.txt": "a", "file.txt": "f"})
	writeFiles(t, outside, map[string]string{"secret.txt": "s"})
	symlinkOrSkip(t, outside, filepath.Join(root, "out"))                                // a folder symlink that leaves
	symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "s.txt")) // a file symlink that leaves
	symlinkOrSkip(t, filepath.Join(root, "docs"), filepath.Join(root, "docslink"))       // stays inside
	relOut, _ := filepath.Rel(filepath.Join(root, "docs"), outsideReal)
	symlinkOrSkip(t, relOut, filepath.Join(root, "docs", "rel"))                      // relative, leaves
	symlinkOrSkip(t, filepath.Join(root, "missing"), filepath.Join(root, "dangling")) // broken
	rootLink := filepath.Join(t.TempDir(), "rootlink")
	symlinkOrSkip(t, root, rootLink) // the root spelled through a symlink

	tests := []struct {
		name, path string
		want       string // resolved path, when allowed
		errWant    string // error substring, when refused
	}{
		{name: "empty is the root", path: "", want: root},
		{name: "dot", path: ".", want: root},
		{name: "existing file", path: "docs/a.txt", want: filepath.Join(root, "docs", "a.txt")},
		{name: "not-yet-existing nested", path: "new/deeper/file.txt", want: filepath.Join(root, "new", "deeper", "file.txt")},
		{name: "dotdot inside", path: "docs/../file.txt", want: filepath.Join(root, "file.txt")},
		{name: "absolute inside", path: filepath.Join(root, "docs", "a.txt"), want: filepath.Join(root, "docs", "a.txt")},
		{name: "absolute through a symlinked root", path: filepath.Join(rootLink, "docs"), want: filepath.Join(root, "docs")},
		{name: "symlink that stays inside", path: "docslink/a.txt", want: filepath.Join(root, "docs", "a.txt")},
		{name: "dotdot escape", path: "../x", errWant: `path "../x" is outside the workspace ` + w.Root},
		{name: "nested dotdot escape", path: "docs/../../x", errWant: "is outside the workspace"},
		{name: "absolute outside", path: filepath.Join(outside, "secret.txt"), errWant: "is outside the workspace"},
		{name: "absolute system path", path: "/etc/passwd", errWant: "is outside the workspace"},
		{name: "symlinked dir escape", path: "out/secret.txt", errWant: "a symlink leads to " + filepath.Join(outsideReal, "secret.txt")},
		{name: "symlinked parent, new file", path: "out/new/file.txt", errWant: "is outside the workspace"},
		{name: "symlink file escape", path: "s.txt", errWant: "is outside the workspace"},
		{name: "relative symlink escape", path: "docs/rel/secret.txt", errWant: "is outside the workspace"},
		{name: "symlink itself to outside dir", path: "out", errWant: "is outside the workspace"},
		{name: "broken symlink", path: "dangling/x.txt", errWant: "broken symlink"},
		{name: "file used as folder", path: "file.txt/x", errWant: "cannot be resolved"},
		{name: "NUL byte", path: "a\x00b", errWant: "NUL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := w.Resolve(tc.path)
			if tc.errWant != "" {
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, want an error", tc.path, got)
				}
				mustContain(t, err.Error(), tc.errWant)
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if got != tc.want {
				t.Errorf("Resolve(%q) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

func TestResolveBadRoot(t *testing.T) {
	t.Parallel()
	for _, w := range []Workspace{{}, {Root: filepath.Join(t.TempDir(), "missing")}} {
		if _, err := w.Resolve("a"); err == nil {
			t.Errorf("Resolve in %q succeeded", w.Root)
		}
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	root := filepath.FromSlash("/w/root")
	tests := map[string]bool{
		"/w/root": true, "/w/root/a": true, "/w/root/a/b": true, "/w/root/..a": true,
		"/w/rootx": false, "/w/roo": false, "/w": false, "/": false, "/w/root/../x": false,
	}
	for p, want := range tests {
		if got := within(root, filepath.Clean(filepath.FromSlash(p))); got != want {
			t.Errorf("within(%q) = %v, want %v", p, got, want)
		}
	}
}

// These change the environment, so they do not run in parallel.
func TestDefaultWorkspace(t *testing.T) {
	t.Cleanup(xdg.Reload) // runs after the environment is restored
	base := t.TempDir()
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(base, strings.ToLower(v)))
	}
	docs := filepath.Join(base, "docs")
	t.Setenv("XDG_DOCUMENTS_DIR", docs)

	t.Run("documents folder", func(t *testing.T) {
		t.Setenv(WorkspaceEnv, "")
		xdg.Reload()
		got, err := DefaultWorkspace()
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(docs, "Juncture"); got != want {
			t.Errorf("DefaultWorkspace = %q, want %q", got, want)
		}
		if info, err := os.Stat(got); err != nil || !info.IsDir() {
			t.Errorf("workspace folder not created: %v", err)
		}
	})
	t.Run("environment override", func(t *testing.T) {
		want := filepath.Join(base, "custom", "ws")
		t.Setenv(WorkspaceEnv, want)
		xdg.Reload()
		got, err := DefaultWorkspace()
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("DefaultWorkspace = %q, want %q", got, want)
		}
		if _, err := os.Stat(got); err != nil {
			t.Errorf("workspace folder not created: %v", err)
		}
	})
}
