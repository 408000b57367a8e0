package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"
)

// WorkspaceEnv overrides the default workspace folder.
const WorkspaceEnv = "JUNCTURE_WORKSPACE"

// Workspace is the folder the file tools are confined to and the folder
// run_command starts in.
type Workspace struct {
	Root string
}

// DefaultWorkspace returns $JUNCTURE_WORKSPACE if set, else a "Juncture"
// folder in the user's documents folder. The folder is created if missing.
func DefaultWorkspace() (string, error) {
	dir := os.Getenv(WorkspaceEnv)
	if dir == "" {
		docs := xdg.UserDirs.Documents
		if docs == "" {
			return "", errors.New("tools: no documents folder to put the workspace in")
		}
		dir = filepath.Join(docs, "Juncture")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("tools: workspace folder: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("tools: create workspace folder: %w", err)
	}
	return dir, nil
}

// root returns the canonical workspace root: absolute, symlinks followed.
func (w Workspace) root() (string, error) {
	if w.Root == "" {
		return "", errors.New("no workspace folder is set")
	}
	abs, err := filepath.Abs(w.Root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("the workspace folder %s does not exist", abs)
		}
		return "", fmt.Errorf("the workspace folder %s cannot be used: %w", abs, err)
	}
	return real, nil
}

// Resolve turns a path the model wrote (relative to the root, or absolute)
// into an absolute path with every existing component's symlinks followed,
// and refuses it if it is not inside the workspace. Components that do not
// exist yet are kept as written, so a file write_file is about to create
// resolves too. The empty path is the root.
func (w Workspace) Resolve(p string) (string, error) {
	root, err := w.root()
	if err != nil {
		return "", err
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	var abs string
	if filepath.IsAbs(p) {
		// Judged only after canonicalising: an absolute path may spell the
		// root through a symlink.
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(root, p)
		if !within(root, abs) {
			return "", outsideErr(p, w.Root, "")
		}
	}
	real, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("path %q cannot be resolved: %w", p, err)
	}
	if !within(root, real) {
		via := ""
		if within(root, abs) {
			via = real // it only leaves through a symlink
		}
		return "", outsideErr(p, w.Root, via)
	}
	return real, nil
}

func outsideErr(p, root, via string) error {
	if via != "" {
		return fmt.Errorf("path %q is outside the workspace %s (a symlink leads to %s)", p, root, via)
	}
	return fmt.Errorf("path %q is outside the workspace %s", p, root)
}

// within reports whether p is root or below it. Both must be clean and
// absolute.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// evalExisting follows symlinks on the longest existing prefix of the clean
// absolute path p and appends the rest unchanged. A dangling symlink or a
// symlink loop is an error rather than a "missing" component: writing
// through it could land anywhere.
func evalExisting(p string) (string, error) {
	var rest []string
	cur := p
	for {
		_, err := os.Lstat(cur)
		if err == nil {
			real, err := filepath.EvalSymlinks(cur)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return "", fmt.Errorf("%s is a broken symlink", cur)
				}
				return "", err
			}
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

// display returns p relative to the canonical root for messages, or p
// itself when that is not possible.
func (w Workspace) display(p string) string {
	root, err := w.root()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || !within(root, p) {
		return p
	}
	return filepath.ToSlash(rel)
}
