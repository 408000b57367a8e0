package secrets

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// recordingKeychain is a keychain that keeps entries in memory and records
// every call ("set <account>", "get <account>", "delete <account>"); with
// refuse set, every call fails as a locked keychain's would.
type recordingKeychain struct {
	mu      sync.Mutex
	entries map[string]string
	calls   []string
	refuse  error
}

func (k *recordingKeychain) record(call string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls = append(k.calls, call)
}

func (k *recordingKeychain) Get(account string) (string, error) {
	k.record("get " + account)
	if k.refuse != nil {
		return "", k.refuse
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.entries[account]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *recordingKeychain) Set(account, secret string) error {
	k.record("set " + account)
	if k.refuse != nil {
		return k.refuse
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.entries[account] = secret
	return nil
}

func (k *recordingKeychain) Delete(account string) error {
	k.record("delete " + account)
	if k.refuse != nil {
		return k.refuse
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.entries, account)
	return nil
}

// writes is every call that would change the keychain.
func (k *recordingKeychain) writes() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var w []string
	for _, c := range k.calls {
		if !strings.HasPrefix(c, "get ") {
			w = append(w, c)
		}
	}
	return w
}

// namedRows is a readable settings table naming a vault; writes are
// recorded.
type namedRows struct{ saved []map[string]string }

func (n *namedRows) Settings(context.Context) (map[string]string, error) {
	return map[string]string{KeyVaultID: "0123456789abcdef"}, nil
}
func (n *namedRows) SaveSettings(_ context.Context, m map[string]string) error {
	n.saved = append(n.saved, m)
	return nil
}
func (n *namedRows) Path() string { return "/nowhere/juncture.db" }

// TestAReadOnlyCopyDoesNotProbeTheKeychainByWriting: the live app's
// start-up probe writes and deletes a test entry in the OS keychain; a
// read-only copy of a damaged history writes nothing anywhere, so it only
// reads to learn whether the keychain answers, and still finds its keys
// where the live app keeps them.
func TestAReadOnlyCopyDoesNotProbeTheKeychainByWriting(t *testing.T) {
	for _, tc := range []struct {
		name       string
		writable   bool
		refuse     error
		wantKind   string
		wantWrites bool
	}{
		{"the live app probes by writing", true, nil, "keychain", true},
		{"a read-only copy only reads", false, nil, "keychain", false},
		{"a read-only copy whose keychain is locked", false, errors.New("locked"), "file", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			t.Setenv("JUNCTURE_KEY_STORAGE", "")
			// Any bus address makes the keychain worth trying (only the fake answers).
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/juncture-test-bus")
			kc := &recordingKeychain{entries: map[string]string{}, refuse: tc.refuse}
			rows := &namedRows{}
			v, err := openChosen(context.Background(), rows, nil, kc, tc.writable, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatalf("openChosen: %v", err)
			}
			if got := v.Storage().Kind; got != tc.wantKind {
				t.Errorf("storage %q (%s), want %q", got, v.Storage().Detail, tc.wantKind)
			}
			writes := kc.writes()
			if tc.wantWrites && len(writes) == 0 {
				t.Errorf("the live app's probe wrote nothing (calls %v)", kc.calls)
			}
			if !tc.wantWrites && len(writes) != 0 {
				t.Errorf("a read-only copy wrote to the keychain: %v", writes)
			}
			if !tc.writable && len(rows.saved) != 0 {
				t.Errorf("a read-only copy wrote settings: %v", rows.saved)
			}
		})
	}
}
