package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFilesystem writes and reads a file through server-filesystem rooted
// in a temporary workspace (given as its argument and as the client's
// root, as the app does), and sees it refuse a path outside.
func TestFilesystem(t *testing.T) {
	t.Parallel()
	workspace := t.TempDir()
	cmd, args := filesystemCommand(t, workspace)
	m := newManager(t, Options{Roots: func() []string { return []string{workspace} }})
	m.Apply(Config{Servers: map[string]ServerConfig{"fs": {Command: cmd, Args: args}}})
	ctx := context.Background()
	file := filepath.Join(workspace, "notes.txt")

	write := waitTool(t, m, "fs", "write_file")
	if write.ReadOnly || !write.Destructive {
		t.Errorf("write_file %+v", write)
	}
	if read := waitTool(t, m, "fs", "read_text_file"); !read.ReadOnly {
		t.Errorf("read_text_file %+v", read)
	}
	tests := []struct {
		tool  string
		args  map[string]any
		isErr bool
		text  string
	}{
		{"write_file", map[string]any{"path": file, "content": "first line\nsecond line\n"}, false, "Successfully wrote to"},
		{"read_text_file", map[string]any{"path": file}, false, "first line\nsecond line\n"},
		{"read_text_file", map[string]any{"path": file, "head": 1}, false, "first line"},
		{"write_file", map[string]any{"path": filepath.Join(t.TempDir(), "outside.txt"), "content": "x"}, true, "Access denied"},
	}
	for _, tt := range tests {
		res := runTool(t, ctx, m, nil, "fs", tt.tool, tt.args)
		if res.IsError != tt.isErr {
			t.Errorf("%s %v: %+v", tt.tool, tt.args, res)
		}
		mustContain(t, res.Content, tt.text)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "first line\nsecond line\n" {
		t.Errorf("on disk: %q, %v", b, err)
	}
}
