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

// rooted is the workspace opened for one tool call. Every file operation
// of the tools goes through its os.Root, which refuses to leave the
// folder at the moment of the operation: Resolve's check gives the
// friendly error, the root makes a symlink swapped in after that check
// harmless.
type rooted struct {
	*os.Root
	dir string // the canonical root path the Root was opened on
}

// open opens the workspace root. The caller closes it.
func (w Workspace) open() (*rooted, error) {
	dir, err := w.root()
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("the workspace folder %s cannot be used: %w", dir, err)
	}
	return &rooted{Root: r, dir: dir}, nil
}

// locate resolves p like Resolve and returns it both relative to the open
// root (for the root's methods) and absolute (for messages).
func (r *rooted) locate(w Workspace, p string) (rel, abs string, err error) {
	abs, err = w.Resolve(p)
	if err != nil {
		return "", "", err
	}
	rel, err = filepath.Rel(r.dir, abs)
	if err != nil || !within(r.dir, abs) {
		// The workspace folder itself moved since it was opened.
		return "", "", fmt.Errorf("path %q changed while it was being used; try again", p)
	}
	return rel, abs, nil
}

// openNoBlock opens rel for reading and returns what it is. A FIFO or a
// device opens without blocking (O_NONBLOCK where the platform has it),
// so the caller can refuse it after looking at the open file itself rather
// than at a path that may have changed since.
func openNoBlock(r *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	f, err := r.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
