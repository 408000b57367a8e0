package attach

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// limitSelf puts the child under its budgets before it reads a byte:
// RLIMIT_DATA (private writable mappings: the Go heap and stacks) at what
// is mapped now plus ChildMemory, RLIMIT_CPU at ChildCPU, no core dumps
// and no files written.
func limitSelf(cpu int) error {
	return setLimits(cpu, rlimit{unix.RLIMIT_DATA, uint64(vmData() + ChildMemory)})
}

// vmData is the size of the process's data mappings now (VmData in
// /proc/self/status, 64 MiB if it cannot be read). It is larger under the
// race detector, whose shadow memory is mapped at start.
func vmData() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 64 << 20
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmData:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 64 << 20
}
