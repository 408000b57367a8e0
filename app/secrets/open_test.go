package secrets

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
)

// damagedRows is a database whose settings table cannot be read; any
// write is recorded.
type damagedRows struct{ saved []map[string]string }

var errMalformed = errors.New("store: settings: database disk image is malformed (11)")

func (d *damagedRows) Settings(context.Context) (map[string]string, error) { return nil, errMalformed }
func (d *damagedRows) SaveSettings(_ context.Context, m map[string]string) error {
	d.saved = append(d.saved, m)
	return nil
}
func (d *damagedRows) Path() string { return "/nowhere/juncture.db" }

// TestOpenWithSettingsThatCannotBeRead: a read-only copy of a damaged
// database whose settings table is the damage opens with a vault that names
// no saved key, and writes nothing; the live database's open still fails.
func TestOpenWithSettingsThatCannotBeRead(t *testing.T) {
	for _, tc := range []struct {
		name     string
		writable bool
		wantErr  bool
	}{
		{"a read-only copy", false, false},
		{"the live database", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := &damagedRows{}
			st := NewFileStore(filepath.Join(t.TempDir(), "secrets.json"))
			v, err := Open(context.Background(), rows, st, KeyStorage{Kind: "custom"}, tc.writable, slog.New(slog.DiscardHandler))
			if tc.wantErr {
				if !errors.Is(err, errMalformed) || v != nil {
					t.Fatalf("Open = %v, %v; want the settings' error", v, err)
				}
				return
			}
			if err != nil || v == nil {
				t.Fatalf("Open = %v, %v; want a vault", v, err)
			}
			if v.id != "" {
				t.Errorf("vault id %q, want none (the settings that name it are unreadable)", v.id)
			}
			if len(rows.saved) != 0 {
				t.Errorf("a read-only open wrote settings: %v", rows.saved)
			}
		})
	}
}
