//go:build unix

package tools

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// Special files must be refused without opening them: opening a FIFO
// blocks until a writer appears, and these tools ignore Stop.
func TestFileToolsRefuseFIFO(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := builtinRegistry(t, w, BuiltinOptions{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{ToolReadFile, map[string]any{"path": "pipe"}, "not a regular file"},
		{ToolWriteFile, map[string]any{"path": "pipe", "content": "x"}, "not a regular file"},
		{ToolListFiles, map[string]any{}, "pipe  (special file)"},
	} {
		res := call(t, context.Background(), r, tc.tool, tc.args)
		mustContain(t, res.Content, tc.want)
	}
}
