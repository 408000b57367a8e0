package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
)

// The tests keep keys in the fallback file under their own
// XDG_CONFIG_HOME: never in the person's keychain. The tests named
// Keychain use a real OS keychain under their own service name
// (`make test` runs them inside a D-Bus session with gnome-keyring).
func init() { os.Setenv("JUNCTURE_KEY_STORAGE", "file") }

// requireKeychain skips when there is no keychain here, unless
// JUNCTURE_REQUIRE_KEYCHAIN=1 (then it fails).
func requireKeychain(t *testing.T) {
	t.Helper()
	t.Setenv("JUNCTURE_KEY_STORAGE", "")
	svc := KeychainService
	KeychainService = "Juncture test"
	t.Cleanup(func() {
		_ = keyring.DeleteAll(KeychainService)
		KeychainService = svc
		closeSessionBus()
	})
	reason := KeychainUnavailable()
	if reason == "" {
		if err := Probe(Keyring(KeychainService)); err != nil {
			reason = err.Error()
		}
	}
	if reason == "" {
		return
	}
	if os.Getenv("JUNCTURE_REQUIRE_KEYCHAIN") == "1" {
		t.Fatalf("JUNCTURE_REQUIRE_KEYCHAIN=1 but there is no keychain: %s", reason)
	}
	t.Skipf("no OS keychain: %s", reason)
}

// closeSessionBus ends go-keyring's shared D-Bus connection (its
// goroutines would outlive the test).
func closeSessionBus() {
	if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return
	}
	if c, err := dbus.SessionBus(); err == nil {
		_ = c.Close()
	}
}

// storeOps runs the same table against any Store.
func storeOps(t *testing.T, s Store) {
	t.Helper()
	acct := "test/" + time.Now().Format("150405.000000")
	steps := []struct {
		name string
		op   func() error
		want string // Get after the step; "-" = absent
	}{
		{"absent", func() error { return nil }, "-"},
		{"set", func() error { return s.Set(acct, "sk-first-1234") }, "sk-first-1234"},
		{"overwrite", func() error { return s.Set(acct, "sk-second-5678") }, "sk-second-5678"},
		{"unicode", func() error { return s.Set(acct, "ключ-🔑-\"q\"") }, "ключ-🔑-\"q\""},
		{"delete", func() error { return s.Delete(acct) }, "-"},
		{"delete again", func() error { return s.Delete(acct) }, "-"},
	}
	for _, st := range steps {
		if err := st.op(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := s.Get(acct)
		switch {
		case st.want == "-" && !errors.Is(err, ErrNotFound):
			t.Fatalf("%s: Get = %q, %v; want ErrNotFound", st.name, got, err)
		case st.want != "-" && (err != nil || got != st.want):
			t.Fatalf("%s: Get = %q, %v; want %q", st.name, got, err, st.want)
		}
	}
}

// TestKeychainSecretService uses the real OS keychain (the app's restart
// over it is app's TestKeychainAppKeepsItsKeys).
func TestKeychainSecretService(t *testing.T) {
	requireKeychain(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	st, ks, err := Choose(KeychainService)
	if err != nil || ks.Kind != "keychain" || ks.Detail != "OS keychain ("+KeychainName()+")" {
		t.Fatalf("Choose = %+v, %v", ks, err)
	}
	storeOps(t, st)
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestKeyStorageFallsBackToAFile: without a keychain keys go to
// secrets.json (0600 in a 0700 folder), which outlives a restart.
func TestKeyStorageFallsBackToAFile(t *testing.T) {
	cases := []struct {
		name, force, bus, reason string
	}{
		{"forced", "file", "", "JUNCTURE_KEY_STORAGE=file"},
		{"no session bus", "", "", "no D-Bus session bus"},
		{"bus does not answer", "", "unix:path=/nonexistent/juncture-test-bus", "did not work"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if runtime.GOOS != "linux" && tc.force == "" {
				t.Skip("the D-Bus cases are Linux's")
			}
			cfgDir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", cfgDir)
			t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
			t.Setenv("JUNCTURE_KEY_STORAGE", tc.force)
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", tc.bus)
			if tc.force == "" && tc.bus == "" && fileExists("/run/user/"+strconv.Itoa(os.Getuid())+"/bus") {
				t.Skip("this machine has a session bus at /run/user")
			}
			st, ks, err := Choose("Juncture test")
			if err != nil || ks.Kind != "file" || !strings.HasPrefix(ks.Detail, "file, because: ") || !strings.Contains(ks.Detail, tc.reason) {
				t.Fatalf("Choose = %+v, %v", ks, err)
			}
			want := filepath.Join(cfgDir, "juncture", "secrets.json")
			if ks.Path != want {
				t.Fatalf("path %s, want %s", ks.Path, want)
			}
			storeOps(t, st)
			if err := st.Set("a", "sk-file-secret-42"); err != nil {
				t.Fatal(err)
			}
			if runtime.GOOS != "windows" {
				if fi, err := os.Stat(want); err != nil || fi.Mode().Perm() != 0o600 {
					t.Fatalf("secrets.json: %v, %v", fi.Mode(), err)
				}
				if fi, err := os.Stat(filepath.Dir(want)); err != nil || fi.Mode().Perm() != 0o700 {
					t.Fatalf("its folder: %v, %v", fi.Mode(), err)
				}
			}
			// A new store (a restart) reads what the last one wrote.
			if got, err := NewFileStore(want).Get("a"); err != nil || got != "sk-file-secret-42" {
				t.Fatalf("after restart: %q, %v", got, err)
			}
		})
	}
}

// failingStore fails every read; it records deletes.
type failingStore struct{ deleted []string }

func (f *failingStore) Get(string) (string, error) { return "", errors.New("locked") }
func (f *failingStore) Set(string, string) error   { return nil }
func (f *failingStore) Delete(a string) error      { f.deleted = append(f.deleted, a); return nil }

// TestVaultNeverDeletesAKeyItCouldNotRead: "could not read" is not
// "empty" (issue 19, defect 13).
func TestVaultNeverDeletesAKeyItCouldNotRead(t *testing.T) {
	st := &failingStore{}
	v := NewVault(st, KeyStorage{Kind: "custom"})
	v.id = "db"
	if _, err := v.Get(SettingAccount("apiKey")); err == nil || !v.Unreadable(SettingAccount("apiKey")) {
		t.Fatalf("a failed read is not unreadable: %v", err)
	}
	_, _ = v.Get(EndpointAccount("e1"))
	rows, err := StripRows(map[string]string{"apiKey": "", KeyEndpoints: `[{"id":"e1","apiKey":""}]`}, v, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.deleted) > 0 {
		t.Fatalf("deleted %v", st.deleted)
	}
	if rows[KeyEndpoints] != `[{"apiKeyRef":"endpoint:e1","id":"e1"}]` {
		t.Fatalf("the unread key lost its reference: %s", rows[KeyEndpoints])
	}
	if err := v.Delete(EndpointAccount("e1")); err != nil || len(st.deleted) != 1 {
		t.Fatalf("an explicit delete: %v %v", err, st.deleted)
	}
}
