package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinsGating(t *testing.T) {
	t.Parallel()
	w, _ := newWorkspace(t)
	names := func(ts []Tool) string {
		var n []string
		for _, tl := range ts {
			n = append(n, tl.Name)
		}
		return strings.Join(n, ",")
	}
	if got := names(Builtins(w, BuiltinOptions{})); got != "list_files,read_file" {
		t.Errorf("without write tools: %s", got)
	}
	all := Builtins(w, BuiltinOptions{EnableWriteTools: true})
	if got := names(all); got != "list_files,read_file,write_file,run_command" {
		t.Errorf("with write tools: %s", got)
	}
	for _, tl := range all {
		wantApproval := tl.Name == ToolWriteFile || tl.Name == ToolRunCommand
		if got := tl.NeedsApproval != nil && tl.NeedsApproval(json.RawMessage(`{}`)); got != wantApproval {
			t.Errorf("%s NeedsApproval = %v", tl.Name, got)
		}
		wantStop := MustComplete
		if tl.Name == ToolRunCommand {
			wantStop = Abortable
		}
		if tl.OnStop != wantStop {
			t.Errorf("%s OnStop = %v", tl.Name, tl.OnStop)
		}
	}
	if _, err := NewRegistry(all...); err != nil {
		t.Fatal(err)
	}
}

func TestListFiles(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	writeFiles(t, root, map[string]string{
		"b.txt": "hello", "a/one.md": strings.Repeat("x", 2048), "a/deep/two.go": "package x",
	})
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	many := filepath.Join(root, "many")
	for i := range MaxListEntries + 10 {
		writeFiles(t, many, map[string]string{fmt.Sprintf("f%03d", i): ""})
	}
	r := builtinRegistry(t, w, BuiltinOptions{})
	tests := []struct {
		name    string
		args    map[string]any
		want    []string
		notWant []string
		isError bool
	}{
		{name: "root", args: map[string]any{}, want: []string{"a/\n", "b.txt  5 B", "empty/"}, notWant: []string{"one.md"}},
		{name: "recursive", args: map[string]any{"path": "a", "recursive": true},
			want: []string{"Folder a/:", "deep/\n", "deep/two.go  9 B", "one.md  2.0 KiB"}},
		{name: "empty folder", args: map[string]any{"path": "empty"}, want: []string{"(empty folder)"}},
		{name: "truncated", args: map[string]any{"path": "many"}, want: []string{"f499", "truncated after 500 entries"}, notWant: []string{"f500"}},
		{name: "truncated recursive", args: map[string]any{"recursive": true}, want: []string{"truncated after 500 entries"}},
		{name: "a file", args: map[string]any{"path": "b.txt"}, want: []string{"is a file", "read_file"}, isError: true},
		{name: "missing", args: map[string]any{"path": "nope"}, want: []string{"cannot list"}, isError: true},
		{name: "outside", args: map[string]any{"path": ".."}, want: []string{"outside the workspace"}, isError: true},
		{name: "bad type", args: map[string]any{"recursive": "yes"}, want: []string{"at /recursive"}, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, context.Background(), r, ToolListFiles, tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Content)
			}
			mustContain(t, res.Content, tc.want...)
			for _, nw := range tc.notWant {
				if strings.Contains(res.Content, nw) {
					t.Errorf("unexpected %q in:\n%s", nw, res.Content)
				}
			}
			if n := strings.Count(res.Content, "\n"); n > MaxListEntries+3 {
				t.Errorf("%d lines, over the cap", n)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	var lines strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	big := strings.Repeat(strings.Repeat("b", 99)+"\n", 4000) // 400 KB
	writeFiles(t, root, map[string]string{
		"ten.txt": lines.String(), "empty.txt": "", "noeol.txt": "one\ntwo",
		"big.txt": big, "long.txt": strings.Repeat("é", MaxReadBytes) + "\nnext\n",
		"latin.txt": "caf\xe9 au lait, s'il vous pla\xeet\n", "dir/x": "",
	})
	bin := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
	if err := os.WriteFile(filepath.Join(root, "img.png"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	r := builtinRegistry(t, w, BuiltinOptions{})
	tests := []struct {
		name    string
		args    map[string]any
		exact   string
		want    []string
		isError bool
	}{
		{name: "whole file", args: map[string]any{"path": "ten.txt"}, exact: lines.String()},
		{name: "no final newline", args: map[string]any{"path": "noeol.txt"}, exact: "one\ntwo"},
		{name: "offset and limit", args: map[string]any{"path": "ten.txt", "offset": 3, "limit": 2},
			exact: "line 3\nline 4\n\n[Showing lines 3-4; the file goes on (at most 256 KiB per read). Continue with offset=5.]"},
		{name: "offset to the end", args: map[string]any{"path": "ten.txt", "offset": 9},
			exact: "line 9\nline 10\n\n[Showing lines 9-10, the end of the file.]"},
		{name: "offset zero is the start", args: map[string]any{"path": "noeol.txt", "offset": 0}, exact: "one\ntwo"},
		{name: "limit exactly the rest", args: map[string]any{"path": "noeol.txt", "limit": 2}, exact: "one\ntwo"},
		{name: "past the end", args: map[string]any{"path": "ten.txt", "offset": 12}, want: []string{"past the end", "10 lines"}, isError: true},
		{name: "just past the end", args: map[string]any{"path": "ten.txt", "offset": 11}, want: []string{"past the end", "10 lines"}, isError: true},
		{name: "past the end without final newline", args: map[string]any{"path": "noeol.txt", "offset": 5}, want: []string{"has 2 lines"}, isError: true},
		{name: "empty", args: map[string]any{"path": "empty.txt"}, exact: "(empty file)"},
		{name: "big file capped", args: map[string]any{"path": "big.txt"},
			want: []string{"Showing lines 1-2621;", "offset=2622"}},
		{name: "big file second part", args: map[string]any{"path": "big.txt", "offset": 2622},
			want: []string{"Showing lines 2622-4000, the end of the file."}},
		{name: "one huge line", args: map[string]any{"path": "long.txt"}, want: []string{"Line 1 is longer than 256 KiB", "offset=2"}},
		{name: "after a huge line", args: map[string]any{"path": "long.txt", "offset": 2}, want: []string{"next\n"}},
		{name: "latin-1 is still text", args: map[string]any{"path": "latin.txt"}, exact: "caf\uFFFD au lait, s'il vous pla\uFFFDt\n"},
		{name: "binary refused", args: map[string]any{"path": "img.png"}, want: []string{"binary file", "only reads text"}, isError: true},
		{name: "folder", args: map[string]any{"path": "dir"}, want: []string{"is a folder", "list_files"}, isError: true},
		{name: "missing", args: map[string]any{"path": "nope.txt"}, want: []string{`file "nope.txt" does not exist`}, isError: true},
		{name: "outside", args: map[string]any{"path": "../x"}, want: []string{`path "../x" is outside the workspace`}, isError: true},
		{name: "no path", args: map[string]any{}, want: []string{"missing property 'path'"}, isError: true},
		{name: "bad limit", args: map[string]any{"path": "ten.txt", "limit": 0}, want: []string{"at /limit"}, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, context.Background(), r, ToolReadFile, tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v: %.300s", res.IsError, res.Content)
			}
			if tc.exact != "" && res.Content != tc.exact {
				t.Errorf("content = %q, want %q", res.Content, tc.exact)
			}
			mustContain(t, res.Content, tc.want...)
			if len(res.Content) > MaxReadBytes+200 {
				t.Errorf("content is %d bytes, over the cap", len(res.Content))
			}
		})
	}
}

func TestWriteFile(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	outside := t.TempDir()
	writeFiles(t, root, map[string]string{"old.txt": "a\nb\nc\n", "dir/keep": ""})
	if err := os.Chmod(filepath.Join(root, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, outside, filepath.Join(root, "out"))
	r := builtinRegistry(t, w, BuiltinOptions{})

	tests := []struct {
		name, path, content string
		want                []string
		isError             bool
	}{
		{name: "create nested", path: "new/sub/file.txt", content: "hi\n", want: []string{"Created new/sub/file.txt: wrote 3 bytes."}},
		{name: "overwrite", path: "old.txt", content: "a\nB\nc\n", want: []string{"Overwrote old.txt: wrote 6 bytes (was 6 bytes)."}},
		{name: "empty content", path: "blank.txt", content: "", want: []string{"Created blank.txt: wrote 0 bytes."}},
		{name: "outside", path: "../evil.txt", content: "x", want: []string{"outside the workspace"}, isError: true},
		{name: "symlinked parent", path: "out/evil.txt", content: "x", want: []string{"outside the workspace"}, isError: true},
		{name: "new folder below symlink", path: "out/a/b/evil.txt", content: "x", want: []string{"outside the workspace"}, isError: true},
		{name: "folder", path: "dir", content: "x", want: []string{"is a folder"}, isError: true},
	}
	// The group returns once its parallel subtests are done.
	t.Run("group", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				res := call(t, context.Background(), r, ToolWriteFile, map[string]any{"path": tc.path, "content": tc.content})
				if res.IsError != tc.isError {
					t.Fatalf("IsError = %v: %s", res.IsError, res.Content)
				}
				mustContain(t, res.Content, tc.want...)
				if tc.isError {
					return
				}
				got, err := os.ReadFile(filepath.Join(root, tc.path))
				if err != nil || string(got) != tc.content {
					t.Errorf("file = %q, %v; want %q", got, err, tc.content)
				}
			})
		}
	})
	if info, err := os.Stat(filepath.Join(root, "old.txt")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("overwrite lost the file mode: %v %v", info.Mode(), err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside: %v", entries)
	}
}

func TestWriteFileLeavesNoTempFiles(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{})
	for i := range 3 {
		res := call(t, context.Background(), r, ToolWriteFile, map[string]any{"path": "f.txt", "content": strings.Repeat("x", i)})
		if res.IsError {
			t.Fatal(res.Content)
		}
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "f.txt" {
		t.Errorf("folder holds %v, want only f.txt", entries)
	}
}

// Stop must never leave a half-written file: write_file ignores it.
func TestWriteFileIgnoresStop(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := call(t, ctx, r, ToolWriteFile, map[string]any{"path": "f.txt", "content": "done"})
	if b, err := os.ReadFile(filepath.Join(root, "f.txt")); res.IsError || err != nil || string(b) != "done" {
		t.Errorf("result %+v, file %q, %v", res, b, err)
	}
}

func TestWritePreview(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	writeFiles(t, root, map[string]string{"notes/old.txt": "one\ntwo\nthree\n"})
	if err := os.WriteFile(filepath.Join(root, "bin.dat"), []byte{0, 1, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	tool := writeFileTool(w)
	tests := []struct {
		name, path, content string
		want                Preview
		errWant             string
	}{
		{name: "new file", path: "notes/new.txt", content: "hello\n", want: Preview{
			Kind: PreviewDiff, Title: "Create notes/new.txt", Folder: filepath.Join(root, "notes"),
			Body: "--- /dev/null\n+++ b/notes/new.txt\n@@ -0,0 +1,1 @@\n+hello\n"}},
		{name: "edit", path: "notes/old.txt", content: "one\n2\nthree\n", want: Preview{
			Kind: PreviewDiff, Title: "Edit notes/old.txt", Folder: filepath.Join(root, "notes"),
			Body: "--- a/notes/old.txt\n+++ b/notes/old.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"}},
		{name: "unchanged", path: "notes/old.txt", content: "one\ntwo\nthree\n", want: Preview{
			Kind: PreviewDiff, Title: "Edit notes/old.txt", Folder: filepath.Join(root, "notes"),
			Body: "No changes: the file already has this content."}},
		{name: "binary", path: "bin.dat", content: "x", want: Preview{
			Kind: PreviewDiff, Title: "Overwrite bin.dat", Folder: root,
			Body: "The current file is binary (3 B); it will be replaced with 1 B of text."}},
		{name: "outside", path: "../x", content: "x", errWant: "outside the workspace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"path": tc.path, "content": tc.content})
			got, err := tool.Preview(context.Background(), args)
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) {
					t.Fatalf("err = %v, want %q", err, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Preview =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}
