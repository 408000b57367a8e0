package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
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
}

// Builtins returns the workspace tools: list_files and read_file, plus
// write_file and run_command when opts.EnableWriteTools is set.
func Builtins(w Workspace, opts BuiltinOptions) []Tool {
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
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
		Run: func(ctx context.Context, args json.RawMessage) (Result, error) {
			var a listArgs
			if err := decodeArgs(args, &a); err != nil {
				return Result{}, err
			}
			return listFiles(w, a)
		},
	}
}

func listFiles(w Workspace, a listArgs) (Result, error) {
	dir, err := w.Resolve(a.Path)
	if err != nil {
		return Result{}, err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return Result{}, fmt.Errorf("cannot list %q: %w", shown(a.Path), err)
	}
	if !info.IsDir() {
		return Result{}, fmt.Errorf("%q is a file, not a folder; use read_file to read it", shown(a.Path))
	}
	var lines []string
	truncated := false
	add := func(rel string, d fs.DirEntry) bool {
		if len(lines) == MaxListEntries {
			truncated = true
			return false
		}
		lines = append(lines, entryLine(filepath.ToSlash(rel), d))
		return true
	}
	if a.Recursive {
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == dir {
					return err
				}
				return nil // an unreadable folder below: listed once, not entered
			}
			if p == dir {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			if !add(rel, d) {
				return fs.SkipAll
			}
			return nil
		})
	} else {
		var entries []fs.DirEntry
		entries, err = os.ReadDir(dir)
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, d := range entries {
			if !add(d.Name(), d) {
				break
			}
		}
	}
	if err != nil && len(lines) == 0 {
		return Result{}, fmt.Errorf("cannot list %q: %w", shown(a.Path), err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Folder %s:\n", displayDir(w.display(dir)))
	if len(lines) == 0 {
		b.WriteString("(empty folder)\n")
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if truncated {
		fmt.Fprintf(&b, "[Listing truncated after %d entries; list a subfolder to see more.]\n", MaxListEntries)
	}
	return Result{Content: strings.TrimRight(b.String(), "\n")}, nil
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

func entryLine(rel string, d fs.DirEntry) string {
	if d == nil {
		return rel
	}
	switch t := d.Type(); {
	case t.IsDir():
		return rel + "/"
	case t&fs.ModeSymlink != 0:
		return rel + "@ (symlink)"
	case t.IsRegular():
		if info, err := d.Info(); err == nil {
			return rel + "  " + humanSize(info.Size())
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
