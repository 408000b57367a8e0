package tools

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

func TestMain(m *testing.M) {
	sandbox.MaybeRunChild() // run_command's confining child (agent/sandbox)
	sandboxtest.MaybeDial(dialEnv)
	// Execute logs recovered panics; keep test output readable.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	goleak.VerifyTestMain(m)
}

// newWorkspace returns a workspace in a fresh temporary folder and its
// canonical root (the temp dir may sit behind a symlink, as on macOS).
func newWorkspace(t *testing.T) (Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Workspace{Root: dir}, real
}

// writeFiles creates files (and their folders) below root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// builtinRegistry returns a registry of every built-in tool.
func builtinRegistry(t *testing.T, w Workspace, opts BuiltinOptions) *Registry {
	t.Helper()
	opts.EnableWriteTools = true
	r, err := NewRegistry(Builtins(w, opts)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// call prepares and executes a call the way the runtime does.
func call(t *testing.T, ctx context.Context, r *Registry, name string, args any) Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	c, res := r.Prepare(name, string(raw))
	if res != nil {
		return *res
	}
	return r.Execute(ctx, c)
}

func mustContain(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}
