package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestFileToolsSymlinkSwap: a folder inside the workspace keeps being
// swapped for a symlink to a folder outside (and back) while the file
// tools use it. Whatever the interleaving, nothing outside is ever read or
// written: an escape is refused, not merely detected afterwards.
func TestFileToolsSymlinkSwap(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	outside := t.TempDir()
	const canary = "CANARY: outside the workspace"
	writeFiles(t, outside, map[string]string{"secret.txt": canary, "f.txt": canary, "deep/secret.txt": canary})
	writeFiles(t, root, map[string]string{"sub/secret.txt": "inside", "sub/deep/secret.txt": "inside"})
	sub, link := filepath.Join(root, "sub"), filepath.Join(root, ".link")
	symlinkOrSkip(t, outside, link)
	r := builtinRegistry(t, w, BuiltinOptions{})

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// "sub" is the folder, then the symlink, then the folder again.
		// Bounded by rounds, not time.
		for i := 0; i < 1_000_000 && !stop.Load(); i++ {
			if err := exchange(sub, link); err != nil {
				t.Errorf("swap: %v", err)
				return
			}
		}
	}()

	const rounds = 400
	calls := []struct {
		tool string
		args map[string]any
	}{
		{ToolReadFile, map[string]any{"path": "sub/secret.txt"}},
		{ToolReadFile, map[string]any{"path": "sub/deep/secret.txt"}},
		{ToolWriteFile, map[string]any{"path": "sub/f.txt", "content": "written"}},
		{ToolWriteFile, map[string]any{"path": "sub/new/f.txt", "content": "written"}},
		{ToolListFiles, map[string]any{"path": "sub", "recursive": true}},
		{ToolListFiles, map[string]any{"path": "sub"}},
	}
	var leaks atomic.Int32
	var callers sync.WaitGroup
	for _, c := range calls {
		callers.Add(1)
		go func() {
			defer callers.Done()
			for range rounds {
				res := call(t, context.Background(), r, c.tool, c.args)
				// The canary's text, or its size in a listing.
				if strings.Contains(res.Content, "CANARY") || strings.Contains(res.Content, fmt.Sprintf("  %d B", len(canary))) {
					leaks.Add(1)
				}
			}
		}()
	}
	callers.Wait()
	stop.Store(true)
	wg.Wait()

	if n := leaks.Load(); n > 0 {
		t.Errorf("%d calls read the folder outside the workspace", n)
	}
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "deep,f.txt,secret.txt" {
		t.Errorf("the folder outside now holds %v", names)
	}
	for _, name := range []string{"secret.txt", "f.txt", "deep/secret.txt"} {
		if b, err := os.ReadFile(filepath.Join(outside, name)); err != nil || string(b) != canary {
			t.Errorf("%s outside = %q, %v; want the canary unchanged", name, b, err)
		}
	}
}

// Symlinks that stay inside the workspace keep working, absolute ones
// included, although os.Root itself refuses absolute symlinks: the tools
// hand it the path Resolve already followed.
func TestFileToolsFollowSymlinksInside(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	writeFiles(t, root, map[string]string{"docs/a.txt": "a\n"})
	symlinkOrSkip(t, filepath.Join(root, "docs"), filepath.Join(root, "abs"))
	symlinkOrSkip(t, "docs", filepath.Join(root, "rel"))
	r := builtinRegistry(t, w, BuiltinOptions{})
	for _, link := range []string{"abs", "rel"} {
		for _, tc := range []struct {
			tool string
			args map[string]any
			want string
		}{
			{ToolReadFile, map[string]any{"path": link + "/a.txt"}, "a\n"},
			{ToolWriteFile, map[string]any{"path": link + "/" + link + ".txt", "content": "x"}, "Created docs/" + link + ".txt"},
			{ToolListFiles, map[string]any{"path": link}, "a.txt  2 B"},
		} {
			res := call(t, context.Background(), r, tc.tool, tc.args)
			if res.IsError {
				t.Errorf("%s %v: %s", tc.tool, tc.args, res.Content)
			}
			mustContain(t, res.Content, tc.want)
		}
	}
}
