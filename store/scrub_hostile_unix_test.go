//go:build unix

package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
)

// settingsFile makes a SQLite file at path with a settings table holding rows.
func settingsFile(t *testing.T, path string, rows map[string]string) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for k, v := range rows {
		if _, err := db.Exec("INSERT INTO settings (key, value) VALUES (?, ?)", k, v); err != nil {
			t.Fatal(err)
		}
	}
}

// swapBeforeSQLite puts swap's work between the check of a file and
// SQLite's open of it, once.
func swapBeforeSQLite(t *testing.T, swap func(path string)) {
	t.Helper()
	prev := beforeSQLiteOpens
	beforeSQLiteOpens = func(path string) {
		beforeSQLiteOpens = prev // once: the test's own reads of the files after are not swapped
		swap(path)
	}
	t.Cleanup(func() { beforeSQLiteOpens = prev })
}

// clearKey is a ScrubSettings scrub that empties the "apiKey" row.
func clearKey(m map[string]string) (map[string]string, bool) {
	if m["apiKey"] == "" {
		return nil, false
	}
	return map[string]string{"apiKey": ""}, true
}

// TestScrubJudgesTheFileSQLiteOpens: ScrubSettings rewrites a migration
// backup in the data folder, where another program can put something
// else, also between the check of the file and SQLite's own open of it.
// What SQLite opened was never checked: a symlink swapped in had another
// database's rows rewritten (and the file rebuilt); a named pipe swapped
// in gave "disk I/O error". Each is now refused, the other file untouched.
func TestScrubJudgesTheFileSQLiteOpens(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// put makes what is at path when SQLite opens it; other is a
		// database elsewhere that must stay as it is.
		put  func(t *testing.T, path, other string)
		race bool // put runs between the check and SQLite's open (else before the call)
		want string
	}{
		{name: "a symlink to another database, there from the start", put: symlinkTo, want: "not a regular file (a symbolic link)"},
		{name: "a symlink to another database, swapped in after the check", put: symlinkTo, race: true, want: "changed while it was being opened"},
		{name: "a named pipe, swapped in after the check", put: fifoAt, race: true, want: "changed while it was being opened"},
		{name: "another regular database, swapped in after the check", put: renamedOver, race: true, want: "changed while it was being opened"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			backup := filepath.Join(dir, "juncture.db.bak-v3")
			other := filepath.Join(t.TempDir(), "other.db")
			settingsFile(t, backup, map[string]string{"apiKey": "sk-backup"})
			settingsFile(t, other, map[string]string{"apiKey": "sk-other"})
			if tc.race {
				swapBeforeSQLite(t, func(path string) { tc.put(t, path, other) })
			} else {
				tc.put(t, backup, other)
			}
			var err error
			testkit.ReturnsWithin(t, "ScrubSettings", backup, func() error {
				_, err = ScrubSettings(ctx, backup, clearKey)
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ScrubSettings = %v, want an error saying %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), backup) {
				t.Errorf("the error %q does not name the file", err)
			}
			got, rerr := ReadSettingsFile(ctx, other)
			if rerr != nil || got["apiKey"] != "sk-other" {
				t.Errorf("the other database's rows = %v, %v; want them untouched", got, rerr)
			}
		})
	}
}

func symlinkTo(t *testing.T, path, other string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
}

func fifoAt(t *testing.T, path, _ string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	testkit.Fifo(t, path)
}

// renamedOver puts a copy of other at path (a rename over it): a regular
// file, but not the one checked.
func renamedOver(t *testing.T, path, other string) {
	t.Helper()
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".new", b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// TestReadingAFileKeepsTheLocksOfItsOpenDatabase: RebuildFile and
// ReadSettingsFile open a file that may be open elsewhere in the process.
// Closing any descriptor of a file drops every POSIX lock the process
// holds on it, SQLite's too: the check of the file must not open and
// close a descriptor of its own (on Linux it uses O_PATH, which keeps
// them).
func TestReadingAFileKeepsTheLocksOfItsOpenDatabase(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/locks")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	settingsFile(t, path, map[string]string{"theme": "dark"})
	held, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	conn, err := held.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	locks := func() int {
		b, err := os.ReadFile("/proc/locks")
		if err != nil {
			t.Skipf("/proc/locks: %v", err)
		}
		return strings.Count(string(b), fmt.Sprintf(":%d ", st.Ino))
	}
	before := locks()
	if before == 0 {
		t.Fatal("the open database holds no lock: the test sees nothing")
	}
	if _, err := ReadSettingsFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	if after := locks(); after != before {
		t.Errorf("the open database's locks: %d before ReadSettingsFile, %d after; want them kept", before, after)
	}
}

// TestTheDatabaseMayBeASymlink: a person may keep the database elsewhere
// behind a symlink; reading and rebuilding it follow the link (only a
// migration backup, which Juncture writes itself, is refused as one).
func TestTheDatabaseMayBeASymlink(t *testing.T) {
	ctx := context.Background()
	real := filepath.Join(t.TempDir(), "elsewhere.db")
	settingsFile(t, real, map[string]string{"theme": "dark"})
	link := filepath.Join(t.TempDir(), "juncture.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadSettingsFile(ctx, link); err != nil || got["theme"] != "dark" {
		t.Fatalf("ReadSettingsFile(link) = %v, %v; want the rows of the file it points to", got, err)
	}
	if err := RebuildFile(ctx, link); err != nil {
		t.Fatalf("RebuildFile(link) = %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link after RebuildFile: %v, %v; want it still a link", fi, err)
	}
}

// TestOpeningAFileCreatesNone: SQLite creates a database file that is not
// there when it opens one. A backup removed (or a link to nowhere swapped
// in) between the check and SQLite's open left an empty database behind,
// at the backup's name or where the link pointed, which each later start
// then found and warned about. The open may only find a file, never make one.
func TestOpeningAFileCreatesNone(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// put changes path between the check and SQLite's open; it returns
		// the paths that must not exist afterwards.
		put func(t *testing.T, path string) []string
	}{
		{name: "the backup removed", put: func(t *testing.T, path string) []string {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			return []string{path}
		}},
		{name: "a symlink to nowhere swapped in", put: func(t *testing.T, path string) []string {
			nowhere := filepath.Join(t.TempDir(), "nowhere.db")
			symlinkTo(t, path, nowhere)
			return []string{nowhere}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			backup := filepath.Join(t.TempDir(), "juncture.db.bak-v3")
			settingsFile(t, backup, map[string]string{"apiKey": "sk-backup"})
			var absent []string
			swapBeforeSQLite(t, func(path string) { absent = tc.put(t, path) })
			if _, err := ScrubSettings(ctx, backup, clearKey); err == nil {
				t.Fatal("ScrubSettings = nil; want an error (the file went)")
			}
			for _, p := range absent {
				if fi, err := os.Stat(p); err == nil {
					t.Errorf("%s exists after ScrubSettings (%d bytes); want nothing created", p, fi.Size())
				}
			}
		})
	}
}
