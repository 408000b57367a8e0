package app

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// Where keys live: the OS keychain (Keychain on macOS, Credential Manager
// on Windows, the Secret Service on Linux) through go-keyring, or, when
// none answers, a file only the person can read
// ($XDG_CONFIG_HOME/juncture/secrets.json, mode 0600). The database keeps
// no key: Settings → General's key and every saved endpoint's key are
// stored here under an account name, and the settings table keeps only a
// reference (keys_migrate.go moves the keys of older databases out).

// keyringService is the service name of every keychain entry.
var keyringService = "Juncture" // a var: the keychain tests use their own

// errNoSecret is what SecretStore.Get returns for an account it lacks.
var errNoSecret = errors.New("no such key stored")

// SecretStore keeps secrets by account name. Errors never contain a
// secret.
type SecretStore interface {
	// Get returns errNoSecret when the account holds nothing.
	Get(account string) (string, error)
	Set(account, secret string) error
	// Delete succeeds when the account holds nothing.
	Delete(account string) error
}

// KeyStorage says where keys are stored (Settings shows it).
type KeyStorage struct {
	// Kind is "keychain" or "file" ("custom" for a store given in Config).
	Kind string `json:"kind"`
	// Detail is a sentence: "OS keychain (Secret Service)" or "file,
	// because: <reason>".
	Detail string `json:"detail"`
	// Path is the fallback file (Kind "file").
	Path string `json:"path,omitempty"`
}

// keychainName is the OS keychain's name on this platform.
func keychainName() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	default:
		return "Secret Service"
	}
}

// keyringStore is the OS keychain.
type keyringStore struct{ service string }

func (k keyringStore) Get(account string) (string, error) {
	s, err := keyring.Get(k.service, account)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", errNoSecret
	}
	return s, err
}

func (k keyringStore) Set(account, secret string) error {
	return keyring.Set(k.service, account, secret)
}

func (k keyringStore) Delete(account string) error {
	if err := keyring.Delete(k.service, account); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return err
	}
	return nil
}

// keychainUnavailable is why the OS keychain cannot be tried at all ("" =
// try it): on Linux go-keyring needs a D-Bus session bus.
func keychainUnavailable() string {
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" && runtime.GOOS != "openbsd" && runtime.GOOS != "netbsd" {
		return ""
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return ""
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return ""
		}
	}
	if _, err := os.Stat("/run/user/" + strconv.Itoa(os.Getuid()) + "/bus"); err == nil {
		return ""
	}
	return "there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service"
}

// keychainProbeTimeout bounds the start-up probe of the keychain (a
// locked Secret Service may wait for a password prompt).
const keychainProbeTimeout = 5 * time.Second

// probeKeychain writes, reads back and deletes a test entry.
func probeKeychain(s SecretStore) error {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	account, want := "probe-"+hex.EncodeToString(b), hex.EncodeToString(b)
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			if err := s.Set(account, want); err != nil {
				return err
			}
			got, err := s.Get(account)
			_ = s.Delete(account)
			if err != nil {
				return err
			}
			if got != want {
				return errors.New("it returned another value than was stored")
			}
			return nil
		}()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(keychainProbeTimeout):
		return fmt.Errorf("it did not answer within %s", keychainProbeTimeout)
	}
}

// secretsFilePath is the fallback file: $XDG_CONFIG_HOME/juncture/secrets.json.
func secretsFilePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the configuration directory: %w", err)
	}
	return filepath.Join(dir, "juncture", "secrets.json"), nil
}

// chooseSecretStore picks the OS keychain when it answers a probe, else
// the file. JUNCTURE_KEY_STORAGE=file (the process environment) forces the
// file.
func chooseSecretStore(service string) (SecretStore, KeyStorage, error) {
	reason := ""
	kc := keyringStore{service: service}
	if os.Getenv("JUNCTURE_KEY_STORAGE") == "file" {
		reason = "JUNCTURE_KEY_STORAGE=file is set"
	} else if r := keychainUnavailable(); r != "" {
		reason = r
	} else if err := probeKeychain(kc); err != nil {
		reason = "the " + keychainName() + " did not work: " + err.Error()
	}
	if reason == "" {
		return kc, KeyStorage{Kind: "keychain", Detail: "OS keychain (" + keychainName() + ")"}, nil
	}
	path, err := secretsFilePath()
	if err != nil {
		return nil, KeyStorage{}, err
	}
	return newFileStore(path), KeyStorage{Kind: "file", Detail: "file, because: " + reason, Path: path}, nil
}

// fileStore is the fallback: one JSON object of account → secret, in a
// file only its owner may read (0600, in a 0700 directory), replaced
// atomically on every change. Every store of the same path in the process
// shares one lock, and a change re-reads the file first.
type fileStore struct {
	path string
	mu   *sync.Mutex
}

var fileStoreLocks sync.Map // path → *sync.Mutex

func newFileStore(path string) fileStore {
	mu, _ := fileStoreLocks.LoadOrStore(path, &sync.Mutex{})
	return fileStore{path: path, mu: mu.(*sync.Mutex)}
}

func (f fileStore) read() (map[string]string, error) {
	b, err := os.ReadFile(f.path)
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
		return "", errNoSecret
	}
	return v, nil
}

func (f fileStore) Set(account, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
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

// keyVault is the app's view of the secret store: accounts are named
// "<vault id>/<name>" (the vault id is saved in the settings table, so two
// databases never share a key) and values are cached in memory.
type keyVault struct {
	store  SecretStore
	status KeyStorage
	id     string

	mu    sync.Mutex
	cache map[string]string // name → secret ("" = known absent)
}

func (v *keyVault) account(name string) string { return v.id + "/" + name }

// get returns the named secret ("" when none is stored).
func (v *keyVault) get(name string) (string, error) {
	if v == nil || v.id == "" {
		return "", nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.cache[name]; ok {
		return s, nil
	}
	s, err := v.store.Get(v.account(name))
	if errors.Is(err, errNoSecret) {
		s, err = "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading a key from the %s: %w", v.status.Kind, err)
	}
	v.cache[name] = s
	return s, nil
}

// set stores the named secret; "" deletes it.
func (v *keyVault) set(name, secret string) error {
	if v == nil || v.id == "" {
		return errors.New("keys cannot be saved: no key storage is open")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.cache[name]; ok && s == secret {
		return nil
	}
	var err error
	if secret == "" {
		err = v.store.Delete(v.account(name))
	} else {
		err = v.store.Set(v.account(name), secret)
	}
	if err != nil {
		return fmt.Errorf("saving a key in the %s: %w", v.status.Kind, err)
	}
	v.cache[name] = secret
	return nil
}

// storage is what Settings shows.
func (v *keyVault) storage() *KeyStorage {
	if v == nil {
		return nil
	}
	s := v.status
	return &s
}
