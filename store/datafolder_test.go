package store

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// The data folder's doors (issue 19, defects 6–9): one Juncture per folder,
// private files, refusals that change nothing, and read-only copies that do
// not outlive a killed session.

// childEnv names the role of a helper process: the test binary re-executed
// ("open <path>" holds the database open; "copy <path>" holds a read-only
// copy). It prints "ready <detail>" and waits to be killed.
const childEnv = "JUNCTURE_STORE_TEST_CHILD"

func runChild(role string) int {
	verb, path, _ := strings.Cut(role, " ")
	ctx := context.Background()
	var detail string
	switch verb {
	case "open":
		db, err := Open(ctx, path)
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		defer db.Close()
		detail = db.Path()
	case "copy":
		db, copyPath, err := OpenReadOnlyCopy(ctx, path)
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		defer db.Close()
		detail = copyPath
	default:
		return 2
	}
	fmt.Println("ready", detail)
	// Until killed, or until the parent closes stdin (then a clean exit).
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// startChild runs a helper process in role and returns it once it is
// ready, with what it printed after "ready".
func startChild(t *testing.T, role string, env ...string) (*osexec.Cmd, string) {
	t.Helper()
	cmd := osexec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+role), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper %q: %v", role, err)
	}
	detail, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if !ok {
		t.Fatalf("helper %q said %q", role, line)
	}
	return cmd, detail
}

// killChild ends cmd with SIGKILL (no deferred Close runs) and reaps it.
func killChild(t *testing.T, cmd *osexec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// Defect 6: a second Open of a folder in use is refused before it reads
// anything, so its crash recovery cannot mark the first one's running
// call and streaming answer as interrupted.
func TestSecondOpenRefusedFirstKeepsLiveRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	first := mustOpen(t, ctx, path)
	defer first.Close()
	mustThread(t, first, "t", "")
	mustPut(t, first, userMsg("t", "u1", "list my files"),
		history.Message{ID: "a1", ThreadID: "t", RunID: "run", Role: history.RoleAssistant, Content: "Still stream",
			Status: history.StatusStreaming, CreatedAt: 2})
	if err := first.PutRun(ctx, history.Run{ID: "run", ThreadID: "t", Status: history.RunRunning, StartedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := first.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: "c1", ThreadID: "t", RunID: "run", ToolName: "run_command", Arguments: "{}"}); err != nil {
		t.Fatal(err)
	}

	second, err := Open(ctx, path)
	if err == nil {
		// What the app does after Open: recover from "the last crash".
		_, _ = second.Recover(ctx)
		second.Close()
		t.Fatal("a second Open of a database in use succeeded")
	}
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Open = %v, want ErrInUse", err)
	}
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.Dir != filepath.Dir(path) || inUse.PID != os.Getpid() {
		t.Errorf("error = %+v", inUse)
	}
	if !strings.Contains(err.Error(), filepath.Dir(path)) || !strings.Contains(err.Error(), "in use") {
		t.Errorf("message does not name the folder: %s", err)
	}

	// The first one's live state is as it left it.
	msgs := mustMessages(t, first, "t")
	if a := msgs[len(msgs)-1]; a.Status != history.StatusStreaming || a.Content != "Still stream" {
		t.Errorf("streaming answer after a second Open = %+v", a)
	}
	if e, _ := first.ToolExecution(ctx, "t", "c1"); e.State != history.ToolStarted {
		t.Errorf("running call after a second Open = %+v", e)
	}
	if r, _ := first.Run(ctx, "run"); r.Status != history.RunRunning {
		t.Errorf("run after a second Open = %+v", r)
	}

	// Close releases the lock: the next Open succeeds.
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	again.Close()
}

// Defect 6: the lock dies with its process, however it dies.
func TestOpenLockReleasedWhenHolderKilled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL: Unix")
	}
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	child, _ := startChild(t, "open "+path)

	_, err := Open(ctx, path)
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != child.Process.Pid {
		t.Fatalf("Open beside a live holder = %v, want *InUseError naming process %d", err, child.Process.Pid)
	}
	killChild(t, child)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after the holder was killed: %v", err)
	}
	db.Close()
}

// Defect 7: a data folder made 0755 (and files 0644) by an older version
// or by hand ends up 0700 with every file 0600: the database, -wal, -shm,
// the backup made before a migration, the lock and the marker.
func TestDataFolderFilesArePrivate(t *testing.T) {
	if !privateMode {
		t.Skip("mode bits: Unix")
	}
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "juncture")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) // whatever the umask
	path := filepath.Join(dir, "juncture.db")
	src, err := os.ReadFile(fixtureV1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644)

	db, err := Open(ctx, path) // migrates: writes a backup
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustThread(t, db, "t-new", "")
	checkPrivate(t, dir, 5) // db, -wal, -shm, .open, .lock, backup

	// A new database in a new folder, too.
	fresh := filepath.Join(t.TempDir(), "new", "juncture.db")
	db2 := mustOpen(t, ctx, fresh)
	defer db2.Close()
	mustThread(t, db2, "t", "")
	checkPrivate(t, filepath.Dir(fresh), 4)
}

// checkPrivate fails unless dir is 0700 and holds at least min files, all
// 0600.
func checkPrivate(t *testing.T, dir string, min int) {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: mode %v, want 0700", dir, fi.Mode().Perm())
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		if fi, err := os.Lstat(p); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
		return nil
	})
	if n < min {
		t.Errorf("%s holds %d files, want at least %d", dir, n, min)
	}
}

// walSnapshot builds, in a new folder, a database whose last transactions
// are only in its -wal file (as a crash or a kill leaves it), after fill
// ran on it, and returns its path.
func walSnapshot(t *testing.T, fill func(raw *sql.DB)) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src.db")
	raw := openRaw(t, src)
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	exec(t, raw, "PRAGMA journal_mode=WAL")
	exec(t, raw, "PRAGMA wal_autocheckpoint=0")
	fill(raw)
	// Copied while the connection is open: its close would checkpoint.
	path := filepath.Join(t.TempDir(), "juncture.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(path + "-wal"); fi == nil || fi.Size() == 0 {
		t.Fatal("the snapshot has no -wal content")
	}
	return path
}

// Defect 8: a newer or damaged database with a -wal file is refused with
// both files byte for byte as they were (no checkpoint, no WAL deletion).
func TestRefusalLeavesDatabaseAndWALUntouched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name string
		fill func(t *testing.T, raw *sql.DB)
		want func(error) bool
	}{
		{"newer", func(t *testing.T, raw *sql.DB) {
			exec(t, raw, "CREATE TABLE threads (id TEXT)")
			exec(t, raw, "INSERT INTO threads VALUES ('from the future')")
			exec(t, raw, "PRAGMA user_version = "+strconv.Itoa(SchemaVersion+1))
		}, func(err error) bool { var e *NewerSchemaError; return errors.As(err, &e) }},
		{"damaged", func(t *testing.T, raw *sql.DB) {
			exec(t, raw, "CREATE TABLE a (x)")
			exec(t, raw, "CREATE TABLE b (x)")
			exec(t, raw, "INSERT INTO a VALUES (1)")
			exec(t, raw, "PRAGMA user_version = "+strconv.Itoa(SchemaVersion))
			exec(t, raw, "PRAGMA wal_checkpoint(TRUNCATE)")
			// Break table b's root page in the file; newer rows of a
			// stay in the -wal only.
			var root, size int64
			raw.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'b'").Scan(&root)
			raw.QueryRow("PRAGMA page_size").Scan(&size)
			var file string
			raw.QueryRow("SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file)
			f, err := os.OpenFile(file, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte{0x77}, (root-1)*size)
			f.Close()
			exec(t, raw, "INSERT INTO a VALUES (2)")
		}, func(err error) bool { var e *CorruptError; return errors.As(err, &e) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := walSnapshot(t, func(raw *sql.DB) { tc.fill(t, raw) })
			db0, _ := os.ReadFile(path)
			wal0, _ := os.ReadFile(path + "-wal")

			db, err := Open(ctx, path)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if !tc.want(err) {
				t.Fatalf("Open = %v", err)
			}
			if !strings.Contains(err.Error(), "not been changed") {
				t.Errorf("message = %s", err)
			}
			db1, _ := os.ReadFile(path)
			wal1, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatalf("the -wal file is gone: %v", err)
			}
			if !bytes.Equal(db0, db1) {
				t.Error("the database file changed")
			}
			if !bytes.Equal(wal0, wal1) {
				t.Error("the -wal file changed")
			}
		})
	}
}

// Defect 9: the read-only copy of a session killed with SIGKILL is removed
// by the next start; the copy of a session still running is left alone;
// a clean Close removes its own copy.
func TestStaleReadOnlyCopyRemovedAfterKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL: Unix")
	}
	// Not parallel: it points TMPDIR (read by os.TempDir) at its own folder.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	orig := filepath.Join(t.TempDir(), "juncture.db")
	db := mustOpen(t, ctx, orig)
	mustThread(t, db, "t", "secret history")
	db.Close()

	killed, killedCopy := startChild(t, "copy "+orig)
	_, liveCopy := startChild(t, "copy "+orig)
	for _, p := range []string{killedCopy, liveCopy} {
		if !strings.HasPrefix(p, tmp) {
			t.Fatalf("copy %s is not in the temp folder %s", p, tmp)
		}
	}
	killChild(t, killed)
	if _, err := os.Stat(killedCopy); err != nil {
		t.Fatalf("the killed session's copy: %v", err)
	}
	// Past the grace a new copy folder gets before its lock is taken.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})

	// The next start (a read-only copy again, here) sweeps.
	next, nextCopy, err := OpenReadOnlyCopy(ctx, orig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(killedCopy)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed session's copy is still there (%v)", err)
	}
	if _, err := os.Stat(liveCopy); err != nil {
		t.Errorf("the running session's copy was removed: %v", err)
	}
	if fi, err := os.Stat(filepath.Dir(filepath.Dir(nextCopy))); err != nil || (privateMode && fi.Mode().Perm() != 0o700) {
		t.Errorf("copies folder: %v, %v", fi.Mode(), err)
	}
	if err := next.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(nextCopy)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Close left its copy (%v)", err)
	}
	if n, err := RemoveStaleCopies(); n != 0 || err != nil {
		t.Errorf("RemoveStaleCopies with only a live copy = %d, %v", n, err)
	}
}

// Defect 6, raced: Opens of one folder at the same moment: exactly one
// wins, the others get ErrInUse (never a half-open database).
func TestConcurrentOpensOneWins(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	const n = 4
	type result struct {
		db  *DB
		err error
	}
	results := make(chan result, n)
	start := make(chan struct{})
	for range n {
		go func() {
			<-start
			db, err := Open(ctx, path)
			results <- result{db, err}
		}()
	}
	close(start)
	won := 0
	for range n {
		r := <-results
		switch {
		case r.err == nil:
			won++
			defer r.db.Close()
		case !errors.Is(r.err, ErrInUse):
			t.Errorf("Open = %v, want nil or ErrInUse", r.err)
		}
	}
	if won != 1 {
		t.Errorf("%d Opens succeeded at once, want 1", won)
	}
}
