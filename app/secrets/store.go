package secrets

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/zalando/go-keyring"
)

// KeychainService is the service name of every keychain entry (a var: the
// keychain tests use their own).
var KeychainService = "Juncture"

// ErrNotFound is what Store.Get returns for an account it lacks.
var ErrNotFound = errors.New("no such key stored")

// Store keeps secrets by account name. Errors never contain a secret.
type Store interface {
	// Get returns ErrNotFound when the account holds nothing.
	Get(account string) (string, error)
	Set(account, secret string) error
	// Delete succeeds when the account holds nothing.
	Delete(account string) error
}

// KeyStorage says where keys are stored (Settings shows it).
type KeyStorage struct {
	// Kind is "keychain" or "file" ("custom" for a store given by the caller).
	Kind string `json:"kind"`
	// Detail is a sentence: "OS keychain (Secret Service)" or "file,
	// because: <reason>".
	Detail string `json:"detail"`
	// Path is the fallback file (Kind "file").
	Path string `json:"path,omitempty"`
}

// KeychainName is the OS keychain's name on this platform.
func KeychainName() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	default:
		return "Secret Service"
	}
}

// Keyring is the OS keychain under service.
func Keyring(service string) Store { return keyringStore{service: service} }

type keyringStore struct{ service string }

func (k keyringStore) Get(account string) (string, error) {
	s, err := keyring.Get(k.service, account)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNotFound
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

// KeychainUnavailable is why the OS keychain cannot be tried at all ("" =
// try it): on Linux go-keyring needs a D-Bus session bus.
func KeychainUnavailable() string {
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
// locked Secret Service may wait for a password prompt; a var: tests
// shorten it).
var keychainProbeTimeout = 5 * time.Second

// ProbeReading asks for an entry that was never stored, and writes
// nothing: a read-only copy of a damaged history saves no key, so it only
// needs to know that the keychain answers (the live app's Probe writes).
func ProbeReading(s Store) error {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return withinProbeTimeout(func() error {
		if _, err := s.Get("probe-" + hex.EncodeToString(b)); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	}, nil)
}

// withinProbeTimeout runs probe, giving up after keychainProbeTimeout
// (the probe goes on in the background: a keychain call cannot be
// cancelled). after, when not nil, runs once probe has answered, in the
// background, given probe's answer: what must be done however late the
// keychain answers, and what no start-up should wait on.
func withinProbeTimeout(probe func() error, after func(probeErr error)) error {
	done := make(chan error, 1)
	go func() {
		err := probe()
		done <- err
		if after != nil {
			after(err)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(keychainProbeTimeout):
		return fmt.Errorf("it did not answer within %s", keychainProbeTimeout)
	}
}

// FilePath is the fallback file: $XDG_CONFIG_HOME/juncture/secrets.json.
func FilePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the configuration directory: %w", err)
	}
	return filepath.Join(dir, "juncture", "secrets.json"), nil
}

// Choose picks the OS keychain when it answers a probe, else the file.
// JUNCTURE_KEY_STORAGE=file (the process environment) forces the file.
func Choose(service string) (Store, KeyStorage, error) {
	return choose(keyringStore{service: service}, true)
}

// choose is Choose over the keychain kc. When not writable (a read-only
// copy) the keychain is only read from, never probed by writing: the
// copy still finds its keys where the live app keeps them, as long as
// the keychain answers a read.
func choose(kc Store, writable bool) (Store, KeyStorage, error) {
	probe := Probe
	if !writable {
		probe = ProbeReading
	}
	reason := ""
	if os.Getenv("JUNCTURE_KEY_STORAGE") == "file" {
		reason = "JUNCTURE_KEY_STORAGE=file is set"
	} else if r := KeychainUnavailable(); r != "" {
		reason = r
	} else if err := probe(kc); err != nil {
		reason = "the " + KeychainName() + " did not work: " + err.Error()
	}
	if reason == "" {
		return kc, KeyStorage{Kind: "keychain", Detail: "OS keychain (" + KeychainName() + ")"}, nil
	}
	path, err := FilePath()
	if err != nil {
		return nil, KeyStorage{}, err
	}
	return NewFileStore(path), KeyStorage{Kind: "file", Detail: "file, because: " + reason, Path: path}, nil
}
