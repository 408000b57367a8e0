package secrets

import (
	"context"
	"log/slog"
	"testing"
	"time"
)

// hangingKeychain never answers (a keychain daemon stuck, an unlock
// prompt nobody sees): every call blocks until the test ends.
type hangingKeychain struct{ release chan struct{} }

func (k hangingKeychain) Get(string) (string, error) { <-k.release; return "", ErrNotFound }
func (k hangingKeychain) Set(string, string) error   { <-k.release; return nil }
func (k hangingKeychain) Delete(string) error        { <-k.release; return nil }

// TestAHangingKeychainFallsBackToTheFile: a keychain that never answers
// its probe, the live app's (writing) or a read-only copy's (reading),
// holds the start-up no longer than keychainProbeTimeout; the file is
// used instead and the detail says why.
func TestAHangingKeychainFallsBackToTheFile(t *testing.T) {
	for _, writable := range []bool{true, false} {
		t.Run(map[bool]string{true: "live", false: "read-only copy"}[writable], func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			t.Setenv("JUNCTURE_KEY_STORAGE", "")
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/juncture-test-bus")
			kc := hangingKeychain{release: make(chan struct{})}
			defer close(kc.release)
			start := time.Now()
			v, err := openChosen(context.Background(), &namedRows{}, nil, kc, writable, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatalf("openChosen: %v", err)
			}
			if took := time.Since(start); took > keychainProbeTimeout+2*time.Second {
				t.Errorf("start-up held %v by a hanging keychain", took)
			}
			if got := v.Storage(); got.Kind != "file" {
				t.Errorf("storage %q (%s), want the file", got.Kind, got.Detail)
			}
		})
	}
}
