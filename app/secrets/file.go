package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/juncture-app/juncture/internal/filelock"
	"github.com/juncture-app/juncture/internal/plainfile"
)

// fileStore is the fallback: one JSON object of account → secret, in a
// file only its owner may read (0600, in a 0700 directory), replaced
// atomically on every change. Every store of the same path in the process
// shares one lock, and a change re-reads the file first.
type fileStore struct {
	path string
	mu   *sync.Mutex
}

var fileStoreLocks sync.Map // path → *sync.Mutex

// NewFileStore is the fallback file at path.
func NewFileStore(path string) Store {
	mu, _ := fileStoreLocks.LoadOrStore(path, &sync.Mutex{})
	return fileStore{path: path, mu: mu.(*sync.Mutex)}
}

// maxKeysFile is the most the keys file may hold: a key is at most a few
// KiB (an MCP sign-in's tokens), and a link to a huge file must not be read
// whole into memory.
const maxKeysFile = 16 << 20

func (f fileStore) read() (map[string]string, error) {
	// A FIFO or a terminal at the path is refused at once (plainfile),
	// never waited on while the app starts.
	b, err := plainfile.ReadFile(f.path, maxKeysFile)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.path, err)
	}
	m := map[string]string{}
	if len(strings.TrimSpace(string(b))) > 0 {
		if err := json.Unmarshal(b, &m); err != nil {
			// The error of Unmarshal quotes no value of the file.
			return nil, fmt.Errorf("%s does not parse as JSON", f.path)
		}
	}
	return m, nil
}

func (f fileStore) write(m map[string]string) error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".secrets-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	return nil
}

func (f fileStore) Get(account string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return "", err
	}
	v, ok := m[account]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// lock takes the keys file's lock across processes (a sibling file,
// path + ".lock"), for a read-modify-write: the file is one per user, and
// another Juncture process (a read-only copy's settings save, an MCP
// sign-in's token refresh) writes it too. Without it, two writers each
// renamed the map they had read over the file, and the other's new key
// was lost. The returned func releases it.
func (f fileStore) lock() (func(), error) {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	lp := f.path + ".lock"
	// A FIFO or a device at the lock path is refused, not waited on.
	l, err := plainfile.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", f.path, err)
	}
	if err := filelock.Lock(l); err != nil {
		l.Close()
		return nil, fmt.Errorf("locking %s: %w", f.path, err)
	}
	return func() { l.Close() }, nil
}

func (f fileStore) Set(account, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return err
	}
	defer unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if v, ok := m[account]; ok && v == secret {
		return nil
	}
	m[account] = secret
	return f.write(m)
}

func (f fileStore) Delete(account string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return err
	}
	defer unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if _, ok := m[account]; !ok {
		return nil
	}
	delete(m, account)
	return f.write(m)
}
