package sandbox

import (
	"fmt"
	"os"
	"sync/atomic"
)

// childArg is argv[1] of a confining child: Juncture re-executes itself
// (os.Executable) with it, the policy and the program, so the rules are
// applied in that child, which then execs the program. Juncture's own
// process is never restricted.
const childArg = "__juncture-sandbox"

// childReady is set once MaybeRunChild ran in this process and returned:
// only then does re-executing this program start a confining child. A
// program (a test binary) that never calls it would run itself again
// instead, so Landlock counts as unavailable there.
var childReady atomic.Bool

// childSpec is the policy as the child receives it (argv[2], JSON).
type childSpec struct {
	Write []string `json:"write"`
	// ReadDirs and ReadFiles are what it may read besides Write (readSet).
	ReadDirs  []string `json:"readDirs,omitempty"`
	ReadFiles []string `json:"readFiles,omitempty"`
	Network   string   `json:"network"`
	Ports     []uint16 `json:"ports,omitempty"`
	// ReadyFD is the child's end of the ready pipe (Started): closed on
	// exec, so the parent learns when the program itself runs.
	ReadyFD int `json:"readyFd,omitempty"`
}

// MaybeRunChild confines this process and execs the program when this
// process was started as a confining child; otherwise it makes Juncture's
// own process unreadable to the programs it starts (protectProcess) and
// returns. It is the first call of main, and of TestMain in every test
// package that starts confined programs. It never returns in a child: when
// the rules cannot be applied, the child says why on stderr and exits with
// status 126, and the program does not run.
func MaybeRunChild() {
	if len(os.Args) < 5 || os.Args[1] != childArg {
		if err := protectProcess(); err != nil {
			fmt.Fprintf(os.Stderr, "juncture sandbox: %v\n", err)
		}
		childReady.Store(true)
		return
	}
	err := confineAndExec(os.Args[2], os.Args[3], os.Args[4:])
	fmt.Fprintf(os.Stderr, "juncture sandbox: %v\n", err)
	os.Exit(126)
}
