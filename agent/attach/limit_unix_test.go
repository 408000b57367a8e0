//go:build unix

package attach

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// limitProbe is what the child prints: each limit, soft and hard.
var limitProbe = []struct {
	name string
	res  int
}{{"cpu", unix.RLIMIT_CPU}, {"core", unix.RLIMIT_CORE}, {"fsize", unix.RLIMIT_FSIZE}, {"data", unix.RLIMIT_DATA}}

// TestLimitSelfSetsEveryLimit: a child that limited itself runs under
// RLIMIT_CPU at its budget, no core dumps and no file writes, soft and
// hard (a hard limit left open would let the decoder raise it), and on
// Linux under RLIMIT_DATA too. Asked of a child of this test binary:
// limitSelf cannot be undone in the test process.
func TestLimitSelfSetsEveryLimit(t *testing.T) {
	if os.Getenv("JUNCTURE_LIMIT_PROBE") == "1" {
		if err := limitSelf(7); err != nil {
			fmt.Println("ERR", err)
			os.Exit(0)
		}
		for _, r := range limitProbe {
			var l unix.Rlimit
			if err := unix.Getrlimit(r.res, &l); err != nil {
				fmt.Println("ERR", err)
				os.Exit(0)
			}
			fmt.Printf("%s %d %d\n", r.name, l.Cur, l.Max)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLimitSelfSetsEveryLimit$")
	cmd.Env = append(os.Environ(), "JUNCTURE_LIMIT_PROBE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	got := map[string][2]uint64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var name string
		var cur, max uint64
		if _, err := fmt.Sscanf(line, "%s %d %d", &name, &cur, &max); err != nil {
			t.Fatalf("probe said %q", out)
		}
		got[name] = [2]uint64{cur, max}
	}
	for name, want := range map[string]uint64{"cpu": 7, "core": 0, "fsize": 0} {
		if l, ok := got[name]; !ok || l[0] != want || l[1] != want {
			t.Errorf("%s limit %v, want %d soft and hard", name, l, want)
		}
	}
	if runtime.GOOS == "linux" {
		d := got["data"]
		if d[0] == unix.RLIM_INFINITY || d[0] < ChildMemory || d[0] != d[1] {
			t.Errorf("data limit %v, want vmData+ChildMemory soft and hard", d)
		}
	}
}
