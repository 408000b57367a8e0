package secrets

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/testkit"
)

// sparseBackup makes a file named like a backup of size bytes, holes all
// through except for data written at the offsets given (a `truncate -s 1T`
// file, a damaged or hostile one).
func sparseBackup(t *testing.T, size int64, data map[int64]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "juncture.db.pre-v9.bak")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skip("no sparse files of this size here:", err)
	}
	for at, s := range data {
		if _, err := f.WriteAt([]byte(s), at); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestFileHoldsOnASparseHugeBackup: a backup of 64 GiB that is holes but
// for a few bytes is searched within the budget any file has (2 s, 4 MiB):
// on Linux the holes are skipped (SEEK_DATA/SEEK_HOLE), so a key in its
// data is found wherever it lies and a file of holes holds no key; where
// holes cannot be skipped the search stops at maxSearchedBytes and says the
// file could not be searched whole (errBackupTooLarge), never "no key".
func TestFileHoldsOnASparseHugeBackup(t *testing.T) {
	const key = "sk-sparse-0123456789"
	const size = 64 << 30
	skipsHoles := runtime.GOOS == "linux"
	if !skipsHoles {
		// Zeros are read here: a cap reached within the time budget.
		old := maxSearchedBytes
		maxSearchedBytes = 64 << 20
		t.Cleanup(func() { maxSearchedBytes = old })
	}
	for _, tc := range []struct {
		name      string
		data      map[int64]string
		wantHolds bool
	}{
		{"all holes", nil, false},
		{"a key deep inside", map[int64]string{40 << 30: key}, true},
		{"a key at the very end", map[int64]string{size - int64(len(key)): key}, true},
		{"data far apart, no key", map[int64]string{1 << 20: "header", 33 << 30: "sk-sparse-01234"}, false},
		{"a key split by a hole is not one", map[int64]string{10 << 30: key[:8], 10<<30 + 1<<20: key[8:]}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := sparseBackup(t, size, tc.data)
			var got bool
			var err error
			testkit.Budget(t, "fileHolds on a 64 GiB sparse file", 2*time.Second, 4<<20+64, func() { got, err = fileHolds(path, []string{key}) })
			switch {
			case skipsHoles && (got != tc.wantHolds || err != nil):
				t.Fatalf("fileHolds = %v, %v; want %v, nil", got, err, tc.wantHolds)
			case !skipsHoles && !got && !errors.Is(err, errBackupTooLarge):
				t.Fatalf("fileHolds = %v, %v; want found or errBackupTooLarge", got, err)
			}
		})
	}
}

// TestFileHoldsStopsAtItsCap: a backup with more data than any history
// could hold is searched up to maxSearchedBytes. A key found before the
// cap is found; none found means "could not be searched whole"
// (errBackupTooLarge, and the caller keeps the file), not "holds no key".
func TestFileHoldsStopsAtItsCap(t *testing.T) {
	const key = "sk-capped-0123456789"
	old := maxSearchedBytes
	maxSearchedBytes = 4 << 20
	t.Cleanup(func() { maxSearchedBytes = old })
	filler := make([]byte, 10<<20)
	for i := range filler {
		filler[i] = '.'
	}
	for _, tc := range []struct {
		name      string
		at        int
		wantHolds bool
		wantErr   error
	}{
		{"a key before the cap", 1 << 20, true, nil},
		{"a key past the cap", 8 << 20, false, errBackupTooLarge},
		{"no key", -1, false, errBackupTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append([]byte(nil), filler...)
			if tc.at >= 0 {
				copy(data[tc.at:], key)
			}
			path := filepath.Join(t.TempDir(), "juncture.db.pre-v9.bak")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := fileHolds(path, []string{key})
			if got != tc.wantHolds || !errors.Is(err, tc.wantErr) {
				t.Fatalf("fileHolds = %v, %v; want %v, %v", got, err, tc.wantHolds, tc.wantErr)
			}
		})
	}
}

// unseekable is a backup whose holes cannot be asked for (as on systems
// without SEEK_DATA): it is read in order, zeros and all.
type unseekable struct{ backupFile }

// TestFileHoldsWhereHolesCannotBeSkipped: the fallback of other systems,
// on this one. A 64 GiB sparse file is read up to maxSearchedBytes
// (lowered to 64 MiB) and no further: a key before it is found; none
// found is errBackupTooLarge, not "holds no key". Budget: 2 s, 4 MiB.
func TestFileHoldsWhereHolesCannotBeSkipped(t *testing.T) {
	const key = "sk-fallback-0123456789"
	old := maxSearchedBytes
	maxSearchedBytes = 64 << 20
	openBackup = func(p string) (backupFile, error) {
		f, err := openPlainBackup(p)
		return unseekable{f}, err
	}
	t.Cleanup(func() { maxSearchedBytes, openBackup = old, openPlainBackup })
	for _, tc := range []struct {
		name      string
		data      map[int64]string
		wantHolds bool
		wantErr   error
	}{
		{"all holes", nil, false, errBackupTooLarge},
		{"a key before the cap", map[int64]string{32 << 20: key}, true, nil},
		{"a key past the cap", map[int64]string{40 << 30: key}, false, errBackupTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := sparseBackup(t, 64<<30, tc.data)
			var got bool
			var err error
			testkit.Budget(t, "fileHolds reading holes", 2*time.Second, 4<<20+64, func() { got, err = fileHolds(path, []string{key}) })
			if got != tc.wantHolds || !errors.Is(err, tc.wantErr) {
				t.Fatalf("fileHolds = %v, %v; want %v, %v", got, err, tc.wantHolds, tc.wantErr)
			}
		})
	}
}

// TestABackupTooLargeToSearchIsKeptAndNamed: a backup that is not a
// database and holds more data than is searched is kept (deleting is
// final, and decided on a guess), and the log says it may hold a key; one
// whose key is found within the cap is deleted.
func TestABackupTooLargeToSearchIsKeptAndNamed(t *testing.T) {
	const key = "sk-toolarge-0123456789"
	old := maxSearchedBytes
	maxSearchedBytes = 1 << 20
	t.Cleanup(func() { maxSearchedBytes = old })
	dir := t.TempDir()
	db := filepath.Join(dir, "juncture.db")
	filler := bytes.Repeat([]byte{'.'}, 2<<20)
	pastCap, withinCap := db+".pre-v6.bak", db+".pre-v7.bak"
	if err := os.WriteFile(pastCap, append(append([]byte(nil), filler...), key...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(withinCap, append([]byte(key), filler...), 0o600); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	scrubBackups(context.Background(), db, []string{key}, slog.New(slog.NewTextHandler(&logged, nil)))
	if _, err := os.Stat(pastCap); err != nil {
		t.Errorf("the backup too large to search was not kept: %v", err)
	}
	if _, err := os.Stat(withinCap); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the backup whose key was found is still there (%v)", err)
	}
	if !bytes.Contains(logged.Bytes(), []byte("may hold one")) || !bytes.Contains(logged.Bytes(), []byte(pastCap)) {
		t.Errorf("the log does not name the kept backup as possibly holding a key:\n%s", logged.String())
	}
	if bytes.Contains(logged.Bytes(), []byte(key)) {
		t.Errorf("the log quotes a key:\n%s", logged.String())
	}
}
