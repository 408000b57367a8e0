//go:build unix

package secrets

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileStoreKillMidWriteAttack (break helper): a child process writes
// the keys file as fast as it can (each Set a new account with a 128 KiB
// key, so each write takes a while) and is SIGKILLed in the middle. The
// next reader finds a whole file holding every key the child had been
// told was written before the last one, never a torn file.
func TestFileStoreKillMidWriteAttack(t *testing.T) {
	if p := os.Getenv("JUNCTURE_KILL_CHILD"); p != "" {
		s := NewFileStore(p)
		key := strings.Repeat("k", 128<<10)
		for i := 0; ; i++ {
			if err := s.Set(fmt.Sprintf("acct%d-%d", os.Getpid(), i), key); err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			fmt.Println("SET", i)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "secrets.json")
	for round := range 12 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFileStoreKillMidWriteAttack$")
		cmd.Env = append(os.Environ(), "JUNCTURE_KILL_CHILD="+path)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Killed once it has written a second key, at a different moment
		// of the next writes each round.
		sc := bufio.NewScanner(out)
		said := ""
		for sc.Scan() {
			said = sc.Text()
			if said == "SET 1" || strings.HasPrefix(said, "ERR") {
				break
			}
		}
		time.Sleep(time.Duration(round) * 15 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		go io.Copy(io.Discard, out)
		cmd.Wait()
		b, n := []byte(said), len(said)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("round %d: %v (child said %q)", round, err, b[:min(n, 200)])
		}
		m := map[string]string{}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("round %d: torn keys file: %v", round, err)
		}
		if want := fmt.Sprintf("acct%d-1", cmd.Process.Pid); said == "SET 1" {
			if _, err := NewFileStore(path).Get(want); err != nil {
				t.Fatalf("round %d: %s, written before the kill, lost: %v", round, want, err)
			}
		}
		tmps, _ := filepath.Glob(filepath.Join(dir, ".secrets-*.tmp"))
		ents, _ := os.ReadDir(dir)
		t.Logf("round %d: %d keys, %d stray temporary files (child: %q, %d in dir)", round, len(m), len(tmps), said, len(ents))
	}
}
