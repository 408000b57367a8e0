package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenMarkerTellsACrashFromACleanClose(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "j.db")
	db := mustOpen(t, context.Background(), path)
	if _, err := os.Stat(openMarker(path)); err != nil {
		t.Fatalf("no open marker while open: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(openMarker(path)); !os.IsNotExist(err) {
		t.Fatalf("marker left after a clean close: %v", err)
	}
	// Pretend the file is large: after a clean close no full scan is needed,
	// after a crash (marker left) it is.
	big := filepath.Join(t.TempDir(), "big.db")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(fullCheckBelow + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := []struct {
		name    string
		crashed bool
		version int
		want    bool
	}{
		{"clean close, current schema", false, SchemaVersion, false},
		{"after a crash", true, SchemaVersion, true},
		{"before a migration", false, SchemaVersion - 1, true},
	}
	for _, tc := range cases {
		os.Remove(openMarker(big))
		if tc.crashed {
			os.WriteFile(openMarker(big), nil, 0o600)
		}
		if got := needsFullCheck(big, tc.version); got != tc.want {
			t.Errorf("%s: full check %v, want %v", tc.name, got, tc.want)
		}
	}
	if !needsFullCheck(path, SchemaVersion) {
		t.Error("a small database must always be checked")
	}
}
