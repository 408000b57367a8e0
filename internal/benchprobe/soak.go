package benchprobe

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// SoakSample is one sample of scripts/bench-soak.sh: this process and its
// descendants (WebKit's web and network processes, MCP servers, commands
// still running), read from /proc (Linux only; elsewhere the /proc figures
// stay zero).
type SoakSample struct {
	Goroutines int
	HeapInuse  uint64 // bytes, after the collection TakeSoakSample forces
	AppPSS     int64  // KiB: this process
	WebPSS     int64  // KiB: WebKitWebProcess and WebKitNetworkProcess descendants
	OtherPSS   int64  // KiB: every other descendant
	// AppAnon and WebAnon are the part of AppPSS and WebPSS that is not a
	// mapped file (Pss_Anon + Pss_Shmem): what the processes allocated.
	// The rest, the share of code and fonts they map, moves as other
	// processes on the machine map the same libraries, and never leaks.
	AppAnon int64
	WebAnon int64
	// AppParts and WebParts split AppAnon and WebAnon by allocator
	// (MemParts); GoKiB is what the Go runtime holds from the OS and has
	// not returned (MemStats Sys − HeapReleased), part of AppParts.Anon.
	AppParts MemParts
	WebParts MemParts
	GoKiB    int64
	AppFDs   int
	KidFDs   int      // open fds of every descendant together
	Kids     []string // each descendant as "pid:name", in pid order
}

// TakeSoakSample collects garbage and returns memory to the OS first, so
// the app's figures are what it keeps, not what the collector had not
// come back for yet, then reads the sample.
func TakeSoakSample() SoakSample {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := SoakSample{Goroutines: runtime.NumGoroutine(), HeapInuse: ms.HeapInuse, GoKiB: int64(ms.Sys-ms.HeapReleased) / 1024}
	self := os.Getpid()
	s.AppPSS, s.AppAnon = pssKiB(self)
	s.AppParts = memParts(self)
	s.AppFDs = countFDs(self)
	for _, k := range descendants(self) {
		name := procName(k)
		s.Kids = append(s.Kids, fmt.Sprintf("%d:%s", k, name))
		s.KidFDs += countFDs(k)
		switch name {
		case "WebKitWebProcess", "WebKitNetworkProcess":
			pss, anon := pssKiB(k)
			s.WebPSS += pss
			s.WebAnon += anon
			s.WebParts = s.WebParts.Add(memParts(k))
		default:
			pss, _ := pssKiB(k)
			s.OtherPSS += pss
		}
	}
	return s
}

// WebMem is the PSS of WebKit's processes under this one and the part of
// it not of files (KiB), and the CPU time they have used (ms, user and
// system), without a collection or the rest of a sample: the soak logs it
// every turn, cheaply, to show how the web process's memory rises and falls
// between the full samples every 10 turns, and what a change to how
// JavaScriptCore collects costs in CPU.
func WebMem() (pss, anon, cpuMS int64) {
	for _, k := range descendants(os.Getpid()) {
		switch procName(k) {
		case "WebKitWebProcess", "WebKitNetworkProcess":
			p, a := pssKiB(k)
			pss += p
			anon += a
			cpuMS += cpuMillis(k)
		}
	}
	return pss, anon, cpuMS
}

// clockTick is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on
// every Linux architecture Go supports.
const clockTick = 10 // ms

// cpuMillis is pid's user and system CPU time (fields 14 and 15 of
// /proc/<pid>/stat, after the parenthesised command name); 0 when unreadable.
func cpuMillis(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return (u + s) * clockTick
}

// String is the sample as the log line's fields bench-soak.sh reads.
func (s SoakSample) String() string {
	return fmt.Sprintf("goroutines=%d heap_kib=%d app_pss=%d web_pss=%d other_pss=%d app_anon=%d web_anon=%d %s %s go_kib=%d app_fds=%d kid_fds=%d kids=%d kid_list=%s",
		s.Goroutines, s.HeapInuse/1024, s.AppPSS, s.WebPSS, s.OtherPSS, s.AppAnon, s.WebAnon, s.AppParts.String("app"), s.WebParts.String("web"), s.GoKiB,
		s.AppFDs, s.KidFDs, len(s.Kids), strings.Join(s.Kids, ","))
}

// pssKiB is pid's proportional set size and the part of it that is not a
// mapped file (Pss_Anon + Pss_Shmem), from smaps_rollup; 0 when unreadable.
func pssKiB(pid int) (pss, anon int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "Pss:":
			pss = n
		case "Pss_Anon:", "Pss_Shmem:":
			anon += n
		}
	}
	return pss, anon
}

func countFDs(pid int) int {
	es, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0
	}
	return len(es)
}

// procName is the program a process runs: WebKit's helpers by their
// executable's base name, anything else by its first two arguments'
// base names ("node:index.js"), so a script server is told from the
// interpreter alone.
func procName(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return "?"
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	name := filepath.Base(args[0])
	if strings.HasPrefix(name, "WebKit") || len(args) < 2 {
		return name
	}
	return name + ":" + filepath.Base(args[1])
}

// descendants lists every process under pid (children, their children…)
// from each process's parent in /proc/<pid>/stat, in pid order.
func descendants(pid int) []int {
	es, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	kids := map[int][]int{}
	for _, e := range es {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(p); ok {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			out = append(out, k)
			queue = append(queue, k)
		}
	}
	slices.Sort(out)
	return out
}

// parentOf reads the ppid field of /proc/<pid>/stat; the command name
// before it is in parentheses and may hold spaces and parentheses itself.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}
