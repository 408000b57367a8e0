package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// systemReads are the folders every confined program may read (and
// execute from): the system's programs, libraries and configuration, and
// the kernel's views of the process. Missing ones are skipped. The home
// folders, /tmp, /var/tmp, /run/user and /mnt are not among them.
var systemReads = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc", "/opt", "/nix/store", "/gnu/store", "/snap", "/var/lib",
	"/proc", "/sys", "/dev",
}

// systemLinks are files below systemReads whose real file may lie
// elsewhere (/etc/resolv.conf → /run/systemd/resolve/…): their targets
// are readable too, as files.
var systemLinks = []string{"/etc/resolv.conf", "/etc/localtime", "/etc/hosts", "/etc/mtab"}

// readSet is what a program run by cmd under p may read, besides p.Write
// and its private temporary folder: the system (systemReads), p.Read, and
// the program's own installation, which starting it needs:
//   - the folder of the program (its real path) and, when that folder is a
//     "bin", the "lib" beside it (node's global modules, a venv's packages);
//   - the same for every folder on the program's PATH (a script's
//     interpreter, the tools a shell command runs);
//   - every argument that names an existing file (a server's script):
//     the outermost node_modules folder holding it, else its folder.
//
// A derived folder that is the home folder, one above it or the root is
// never added (a script directly in the home folder is added as a file).
// Folders are resolved (Landlock rules follow the real path) and
// deduplicated; dirs and files are returned apart, and the links at the
// top of the file system (merged /usr) are kept for bwrap.
func readSet(cmd *exec.Cmd, p Policy) reads {
	var r reads
	homes := homeDirs(cmd.Env)
	add := func(path string, derived bool) {
		if target, err := os.Readlink(path); err == nil && filepath.Dir(path) == "/" && !slices.Contains(r.links, [2]string{target, path}) {
			// /bin → usr/bin: bwrap must make the link again.
			r.links = append(r.links, [2]string{target, path})
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return
		}
		fi, err := os.Stat(real)
		if err != nil {
			return
		}
		if !fi.IsDir() {
			if !slices.Contains(r.files, real) {
				r.files = append(r.files, real)
			}
			return
		}
		if derived && coversHome(real, homes) {
			return
		}
		if !slices.Contains(r.dirs, real) {
			r.dirs = append(r.dirs, real)
		}
	}
	for _, d := range systemReads {
		add(d, false)
	}
	for _, f := range systemLinks {
		add(f, false)
	}
	for _, r := range p.Read {
		add(filepath.Clean(r), true)
	}
	for _, d := range programDirs(cmd) {
		add(d, true)
		if root := toolRoot(resolved(d), homes); root != "" {
			add(root, true)
		}
	}
	files0, modules := argFiles(cmd)
	for _, m := range modules {
		add(m, true)
	}
	for _, f := range files0 {
		if d := filepath.Dir(f); coversHome(d, homes) {
			add(f, true)
		} else {
			add(d, true)
		}
	}
	return r
}

// programDirs are the folders of the program and of its PATH, each with
// the "lib" beside a "bin".
func programDirs(cmd *exec.Cmd) []string {
	var out []string
	withLib := func(dir string) {
		out = append(out, dir)
		if filepath.Base(dir) == "bin" {
			out = append(out, filepath.Join(filepath.Dir(dir), "lib"))
		}
	}
	if real, err := filepath.EvalSymlinks(cmd.Path); err == nil && filepath.IsAbs(cmd.Path) {
		withLib(filepath.Dir(cmd.Path))
		withLib(filepath.Dir(real))
	}
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(v) {
				if filepath.IsAbs(d) {
					withLib(filepath.Clean(d))
				}
			}
		}
	}
	return out
}

// secretHomeFolders are folders below home that hold secrets or
// everything (.local/share, .config): a program on the PATH below them
// does not make them readable. ~/.cargo holds crates.io's token; rustup's
// programs there find their toolchains in ~/.rustup (toolHomes).
var secretHomeFolders = []string{".local", ".config", ".ssh", ".gnupg", ".aws", ".azure", ".gcloud", ".docker",
	".kube", ".password-store", ".cargo", ".netrc", ".git-credentials", ".pki", ".mozilla", ".thunderbird"}

// toolHomes are the folders a tool on the PATH below home needs besides
// its own, by its folder.
var toolHomes = map[string]string{".cargo": ".rustup"}

// toolRoot is the installation a folder on the PATH below a home folder
// belongs to: the hidden folder right below home (~/.pyenv for
// ~/.pyenv/shims, ~/.asdf for ~/.asdf/shims), which its programs (shims)
// need; "" for folders elsewhere, and for those in secretHomeFolders
// (where toolHomes may name the one they need).
func toolRoot(dir string, homes []string) string {
	for _, home := range homes {
		rel, err := filepath.Rel(home, dir)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		top, _, _ := strings.Cut(rel, string(filepath.Separator))
		if need, ok := toolHomes[top]; ok {
			return filepath.Join(home, need)
		}
		if !strings.HasPrefix(top, ".") || slices.Contains(secretHomeFolders, top) {
			return ""
		}
		return filepath.Join(home, top)
	}
	return ""
}

// argFiles are the arguments of cmd that name existing regular files
// (absolute, or relative to cmd.Dir when it is set), resolved. For one
// inside a node_modules folder, modules is that outermost folder (a
// Node.js server loads its dependencies from there).
func argFiles(cmd *exec.Cmd) (files []string, modules []string) {
	for _, a := range cmd.Args[min(1, len(cmd.Args)):] {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			if cmd.Dir == "" {
				continue
			}
			path = filepath.Join(cmd.Dir, path)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if i := strings.Index(real, string(filepath.Separator)+"node_modules"+string(filepath.Separator)); i > 0 {
			modules = append(modules, real[:i+len("/node_modules")])
			continue
		}
		files = append(files, real)
	}
	return files, modules
}

// coversHome says whether dir is the root, or one of the home folders
// or above it.
func coversHome(dir string, homes []string) bool {
	if dir == filepath.Dir(dir) {
		return true
	}
	for _, home := range homes {
		if home == "" {
			continue
		}
		rel, err := filepath.Rel(dir, home)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// homeDirs are the home folder of the program (its HOME) and Juncture's,
// resolved.
func homeDirs(env []string) []string {
	var out []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok && filepath.IsAbs(v) {
			out = append(out, resolved(v))
		}
	}
	if h, err := os.UserHomeDir(); err == nil {
		out = append(out, resolved(h))
	}
	return out
}

func resolved(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}
