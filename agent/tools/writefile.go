package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
		Preview:       withArgs(func(_ context.Context, a writeArgs) (Preview, error) { return writePreview(w, a) }),
		Run:           withArgs(func(_ context.Context, a writeArgs) (Result, error) { return writeFile(w, a) }),
	}
}

// target is the file write_file is about to write and what is there now.
type target struct {
	rel, abs string // relative to the open root; absolute, for messages
	old      []byte
	exists   bool // false for a file that is not there yet
	mode     fs.FileMode
}

// writeTarget resolves the path and reads what is there now through the
// open root.
func writeTarget(w Workspace, r *rooted, path string) (target, error) {
	rel, abs, err := r.locate(w, path)
	if err != nil {
		return target{}, err
	}
	t := target{rel: rel, abs: abs, mode: 0o644}
	f, info, err := openNoBlock(r.Root, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, nil
	case err != nil:
		return target{}, fmt.Errorf("cannot write %q: %w", path, err)
	}
	defer f.Close()
	switch {
	case info.IsDir():
		return target{}, fmt.Errorf("%q is a folder; give a file path", path)
	case !info.Mode().IsRegular():
		return target{}, fmt.Errorf("%q is not a regular file", path)
	}
	if t.old, err = io.ReadAll(f); err != nil {
		return target{}, fmt.Errorf("cannot read the current %q: %w", path, err)
	}
	t.exists, t.mode = true, info.Mode().Perm()
	return t, nil
}

func writePreview(w Workspace, a writeArgs) (Preview, error) {
	r, err := w.open()
	if err != nil {
		return Preview{}, err
	}
	defer r.Close()
	t, err := writeTarget(w, r, a.Path)
	if err != nil {
		return Preview{}, err
	}
	old := t.old
	name := w.display(t.abs)
	pv := Preview{Kind: PreviewDiff, Folder: filepath.Dir(t.abs)}
	switch {
	case !t.exists:
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
	r, err := w.open()
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	t, err := writeTarget(w, r, a.Path)
	if err != nil {
		return Result{}, err
	}
	if !utf8.ValidString(a.Content) {
		return Result{}, fmt.Errorf("content for %q is not valid UTF-8 text", a.Path)
	}
	if err := r.MkdirAll(filepath.Dir(t.rel), 0o755); err != nil {
		return Result{}, fmt.Errorf("cannot create the folder for %q: %w", a.Path, err)
	}
	// The folder now exists: resolve again, so that a path that now leads
	// elsewhere (a symlink raced into it) gets a clear error. The root
	// would refuse a write outside anyway.
	if _, again, err := r.locate(w, a.Path); err != nil {
		return Result{}, err
	} else if again != t.abs {
		return Result{}, fmt.Errorf("path %q changed while it was being written; try again", a.Path)
	}
	if err := atomicWrite(r.Root, t.rel, []byte(a.Content), t.mode); err != nil {
		return Result{}, fmt.Errorf("cannot write %q: %w", a.Path, err)
	}
	name := w.display(t.abs)
	if t.exists {
		return Result{Content: fmt.Sprintf("Overwrote %s: wrote %d bytes (was %d bytes).", name, len(a.Content), len(t.old))}, nil
	}
	return Result{Content: fmt.Sprintf("Created %s: wrote %d bytes.", name, len(a.Content))}, nil
}

// atomicWrite writes data to a temporary file in the target's folder,
// flushes it and renames it over the target, so readers (and a crash) see
// either the old file or the new one, never half of it. Every step goes
// through the root: the temporary file cannot be created, nor renamed to,
// outside it.
func atomicWrite(r *os.Root, rel string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(rel)
	tmp, tmpName, err := createTemp(r, dir, "."+filepath.Base(rel)+".juncture-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			_ = r.Remove(tmpName) // best effort: err is what the caller sees
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// Chmod on the open file, not on a name that could be swapped.
	if cerr := tmp.Chmod(mode); cerr != nil && runtime.GOOS != "windows" {
		return cerr
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = r.Rename(tmpName, rel); err != nil {
		return err
	}
	syncDir(r, dir)
	return nil
}

// createTemp creates a new file in dir below the root with a random name
// (prefix, random digits, .tmp), readable only by its owner until
// atomicWrite sets the final mode. os.CreateTemp has no os.Root form.
func createTemp(r *os.Root, dir, prefix string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("cannot create a temporary file in %s", dir)
}

// syncDir makes a rename durable where the platform supports it.
func syncDir(r *os.Root, dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := r.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
