package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/sandbox"
)

// Built-in tool names.
const (
	ToolListFiles  = "list_files"
	ToolReadFile   = "read_file"
	ToolWriteFile  = "write_file"
	ToolRunCommand = "run_command"
)

// Limits of the built-in tools.
const (
	MaxListEntries        = 500
	MaxReadBytes          = 256 << 10
	MaxCommandOutput      = 64 << 10
	DefaultKillGrace      = 2 * time.Second
	DefaultCommandTimeout = 120 * time.Second
	MaxCommandTimeout     = time.Hour
)

// BuiltinOptions configures Builtins.
type BuiltinOptions struct {
	// KillGrace is how long run_command waits after SIGTERM before it
	// sends SIGKILL to the command's process group. Zero means 2 s.
	KillGrace time.Duration
	// EnableWriteTools adds write_file and run_command. Both change
	// things and rely on NeedsApproval being honoured by the runtime (it is:
	// they ask first unless a permission rule covers the call). The app
	// turns them on by default; the person can switch them off in Settings.
	EnableWriteTools bool
	// ExtraEnv is added to the environment of every command run_command
	// runs (name → value), over an inherited variable of the same name.
	// Commands otherwise inherit only PATH, HOME, USER, LOGNAME, the
	// locale (LANG, LC_ALL, LC_CTYPE) and TMPDIR from the app (on Windows
	// the variables programs need to start, such as SystemRoot, ComSpec,
	// PATHEXT, TEMP and USERPROFILE), so the app's own secrets
	// (OPENAI_API_KEY, JUNCTURE_TOKEN) never reach them. A name that is
	// empty or holds = or NUL makes every command fail with an error.
	ExtraEnv map[string]string
	// Processes tracks the commands run_command starts, so their owner
	// can end them all when it shuts down (nil: the package's default
	// set, which KillAll closes).
	Processes *Processes
	// Sandbox confines the commands run_command runs to the workspace and
	// the call's network policy (nil: the system's sandbox; see
	// agent/sandbox).
	Sandbox *sandbox.Sandbox
}

// Builtins returns the workspace tools: list_files and read_file, plus
// write_file and run_command when opts.EnableWriteTools is set.
func Builtins(w Workspace, opts BuiltinOptions) []Tool {
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
	}
	if opts.Processes == nil {
		opts.Processes = running
	}
	ts := []Tool{listFilesTool(w), readFileTool(w)}
	if opts.EnableWriteTools {
		ts = append(ts, writeFileTool(w), runCommandTool(w, opts))
	}
	return ts
}

func always(json.RawMessage) bool { return true }

// decodeArgs unmarshals validated arguments into a struct.
func decodeArgs(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("arguments do not fit the tool: %w", err)
	}
	return nil
}

// withArgs adapts f to a tool's Run or Preview: the call's validated
// arguments are decoded into A (decodeArgs) before f sees them.
func withArgs[A, R any](f func(ctx context.Context, a A) (R, error)) func(context.Context, json.RawMessage) (R, error) {
	return func(ctx context.Context, args json.RawMessage) (R, error) {
		var a A
		if err := decodeArgs(args, &a); err != nil {
			var zero R
			return zero, err
		}
		return f(ctx, a)
	}
}

// ---- list_files ----

type listArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

func listFilesTool(w Workspace) Tool {
	return Tool{
		Name: ToolListFiles,
		Description: "List the files and folders in a workspace folder. Folder names end with /; " +
			"file sizes are shown. Paths are relative to the workspace root.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Folder to list, relative to the workspace root. Default: the root."},
    "recursive": {"type": "boolean", "description": "Also list everything below the folder. Default: false."}
  },
  "additionalProperties": false
}`),
		OnStop: MustComplete,
		Run:    withArgs(func(_ context.Context, a listArgs) (Result, error) { return listFiles(w, a) }),
	}
}

func listFiles(w Workspace, a listArgs) (Result, error) {
	r, err := w.open()
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	rel, dir, err := r.locate(w, a.Path)
	if err != nil {
		return Result{}, err
	}
	d, info, err := openNoBlock(r.Root, rel)
	if err != nil {
		return Result{}, fmt.Errorf("cannot list %q: %w", shown(a.Path), err)
	}
	defer d.Close()
	if !info.IsDir() {
		return Result{}, fmt.Errorf("%q is a file, not a folder; use read_file to read it", shown(a.Path))
	}
	l := &lister{root: r.Root}
	if a.Recursive {
		err = l.walk(d, rel, "")
	} else {
		err = l.list(d, rel, "")
	}
	if errors.Is(err, errFull) {
		err = nil
	}
	if err != nil && len(l.lines) == 0 {
		return Result{}, fmt.Errorf("cannot list %q: %w", shown(a.Path), err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Folder %s:\n", displayDir(w.display(dir)))
	if len(l.lines) == 0 {
		b.WriteString("(empty folder)\n")
	}
	for _, line := range l.lines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if l.truncated {
		fmt.Fprintf(&b, "[Listing truncated after %d entries; list a subfolder to see more.]\n", MaxListEntries)
	}
	return Result{Content: strings.TrimRight(b.String(), "\n")}, nil
}

// lister collects listing lines, at most MaxListEntries. It reads folders
// and sizes through the root only: a DirEntry's own Info looks the name up
// by path, which a swapped symlink could redirect.
type lister struct {
	root      *os.Root
	lines     []string
	truncated bool
}

// add records an entry; it reports false once the listing is full.
func (l *lister) add(rel, shownAs string, d fs.DirEntry) bool {
	if len(l.lines) == MaxListEntries {
		l.truncated = true
		return false
	}
	l.lines = append(l.lines, entryLine(filepath.ToSlash(shownAs), d, func() (fs.FileInfo, error) {
		return l.root.Lstat(rel)
	}))
	return true
}

// errFull stops a listing that reached MaxListEntries.
var errFull = errors.New("the listing is full")

// list adds the entries of the open folder dir (rel below the root, shown
// with prefix) in name order. It returns errFull once the listing is full.
func (l *lister) list(dir *os.File, rel, prefix string) error {
	entries, err := dir.ReadDir(-1)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, d := range entries {
		if !l.add(filepath.Join(rel, d.Name()), prefix+d.Name(), d) {
			return errFull
		}
	}
	return err
}

// walk is list, depth first: each folder's entries follow it. A folder
// below that cannot be opened is listed but not entered; symlinks are
// listed, never followed.
func (l *lister) walk(dir *os.File, rel, prefix string) error {
	entries, err := dir.ReadDir(-1)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, d := range entries {
		childRel, childShown := filepath.Join(rel, d.Name()), prefix+d.Name()
		if !l.add(childRel, childShown, d) {
			return errFull
		}
		if !d.IsDir() {
			continue
		}
		sub, info, oerr := openNoBlock(l.root, childRel)
		if oerr != nil {
			continue
		}
		if info.IsDir() {
			oerr = l.walk(sub, childRel, childShown+"/")
		}
		sub.Close()
		if errors.Is(oerr, errFull) {
			return oerr
		}
	}
	return err
}

// shown is a path as the model wrote it, with "" spelled ".".
func shown(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func displayDir(rel string) string {
	if rel == "." {
		return "./ (workspace root)"
	}
	return rel + "/"
}

// entryLine is one line of a listing; info is asked only for a regular
// file's size.
func entryLine(rel string, d fs.DirEntry, info func() (fs.FileInfo, error)) string {
	if d == nil {
		return rel
	}
	switch t := d.Type(); {
	case t.IsDir():
		return rel + "/"
	case t&fs.ModeSymlink != 0:
		return rel + "@ (symlink)"
	case t.IsRegular():
		if fi, err := info(); err == nil {
			return rel + "  " + humanSize(fi.Size())
		}
		return rel
	default:
		return rel + "  (special file)"
	}
}

func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
