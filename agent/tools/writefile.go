package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"unicode/utf8"
)

// maxPreviewBytes caps the diff an approval card shows.
const maxPreviewBytes = 256 << 10

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func writeFileTool(w Workspace) Tool {
	return Tool{
		Name: ToolWriteFile,
		Description: "Write a text file in the workspace, replacing it if it exists. Parent folders are " +
			"created. The person approves each write after seeing a diff.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to write, relative to the workspace root."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`),
		// A half-written file is the one thing Stop must never cause.
		OnStop:        MustComplete,
		NeedsApproval: always,
		Preview: func(ctx context.Context, args json.RawMessage) (Preview, error) {
			var a writeArgs
			if err := decodeArgs(args, &a); err != nil {
				return Preview{}, err
			}
			return writePreview(w, a)
		},
		Run: func(ctx context.Context, args json.RawMessage) (Result, error) {
			var a writeArgs
			if err := decodeArgs(args, &a); err != nil {
				return Result{}, err
			}
			return writeFile(w, a)
		},
	}
}

// writeTarget resolves the path and reads what is there now. It returns
// exists=false for a file that is not there yet.
func writeTarget(w Workspace, path string) (p string, old []byte, exists bool, mode fs.FileMode, err error) {
	p, err = w.Resolve(path)
	if err != nil {
		return "", nil, false, 0, err
	}
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil, false, 0o644, nil
	case err != nil:
		return "", nil, false, 0, fmt.Errorf("cannot write %q: %w", path, err)
	case info.IsDir():
		return "", nil, false, 0, fmt.Errorf("%q is a folder; give a file path", path)
	case !info.Mode().IsRegular():
		return "", nil, false, 0, fmt.Errorf("%q is not a regular file", path)
	}
	old, err = os.ReadFile(p)
	if err != nil {
		return "", nil, false, 0, fmt.Errorf("cannot read the current %q: %w", path, err)
	}
	return p, old, true, info.Mode().Perm(), nil
}

func writePreview(w Workspace, a writeArgs) (Preview, error) {
	p, old, exists, _, err := writeTarget(w, a.Path)
	if err != nil {
		return Preview{}, err
	}
	name := w.display(p)
	pv := Preview{Kind: PreviewDiff, Folder: filepath.Dir(p)}
	switch {
	case !exists:
		pv.Title = "Create " + name
		pv.Body = UnifiedDiff("/dev/null", "b/"+name, "", a.Content)
	case looksBinary(old[:min(len(old), sniffBytes)]):
		pv.Title = "Overwrite " + name
		pv.Body = fmt.Sprintf("The current file is binary (%s); it will be replaced with %s of text.",
			humanSize(int64(len(old))), humanSize(int64(len(a.Content))))
		return pv, nil
	default:
		pv.Title = "Edit " + name
		pv.Body = UnifiedDiff("a/"+name, "b/"+name, string(old), a.Content)
		if pv.Body == "" {
			pv.Body = "No changes: the file already has this content."
		}
	}
	if len(pv.Body) > maxPreviewBytes {
		cut := runeStart([]byte(pv.Body), maxPreviewBytes)
		pv.Body = pv.Body[:cut] + fmt.Sprintf("\n… diff truncated (%d bytes omitted) …\n", len(pv.Body)-cut)
	}
	return pv, nil
}

func writeFile(w Workspace, a writeArgs) (Result, error) {
	p, old, exists, mode, err := writeTarget(w, a.Path)
	if err != nil {
		return Result{}, err
	}
	if !utf8.ValidString(a.Content) {
		return Result{}, fmt.Errorf("content for %q is not valid UTF-8 text", a.Path)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Result{}, fmt.Errorf("cannot create the folder for %q: %w", a.Path, err)
	}
	// The folder now exists: resolve again so a symlink raced into the new
	// path cannot carry the write outside the workspace.
	if again, err := w.Resolve(a.Path); err != nil {
		return Result{}, err
	} else if again != p {
		return Result{}, fmt.Errorf("path %q changed while it was being written; try again", a.Path)
	}
	if err := atomicWrite(p, []byte(a.Content), mode); err != nil {
		return Result{}, fmt.Errorf("cannot write %q: %w", a.Path, err)
	}
	name := w.display(p)
	if exists {
		return Result{Content: fmt.Sprintf("Overwrote %s: wrote %d bytes (was %d bytes).", name, len(a.Content), len(old))}, nil
	}
	return Result{Content: fmt.Sprintf("Created %s: wrote %d bytes.", name, len(a.Content))}, nil
}

// atomicWrite writes data to a temporary file in the target's folder,
// flushes it and renames it over the target, so readers (and a crash) see
// either the old file or the new one, never half of it.
func atomicWrite(p string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(p)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(p)+".juncture-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if cerr := tmp.Chmod(mode); cerr != nil && runtime.GOOS != "windows" {
		return cerr
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), p); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable where the platform supports it.
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
