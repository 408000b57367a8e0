package benchprobe

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A sample sees this process's goroutines, memory and fds, and a child
// process with its name; once the child is gone it is gone from the sample.
func TestSoakSampleSeesChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	s := TakeSoakSample()
	if s.Goroutines < 1 || s.AppPSS <= 0 || s.AppAnon <= 0 || s.AppAnon >= s.AppPSS || s.AppFDs < 3 {
		t.Fatalf("sample of this process: %+v", s)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	with := TakeSoakSample()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	without := TakeSoakSample()
	if len(with.Kids) != len(s.Kids)+1 || !strings.Contains(strings.Join(with.Kids, ","), ":sleep:30") {
		t.Fatalf("kids with a child: %v (before: %v)", with.Kids, s.Kids)
	}
	if len(without.Kids) != len(s.Kids) {
		t.Fatalf("kids after the child ended: %v", without.Kids)
	}
	if s.GoKiB <= 0 || s.AppParts.Anon <= 0 {
		t.Fatalf("allocators of this process: %+v, Go %d KiB", s.AppParts, s.GoKiB)
	}
	if str := with.String(); !strings.Contains(str, "kids=") || !strings.Contains(str, "app_anon=") || !strings.Contains(str, " app_cheap=") || !strings.Contains(str, " go_kib=") {
		t.Fatalf("String: %s", with.String())
	}
}

// A command name with spaces and parentheses does not shift the parent field.
func TestParentOfSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	pp, ok := parentOf(os.Getpid())
	if !ok || pp != os.Getppid() {
		t.Fatalf("parentOf(self) = %d, %v; want %d", pp, ok, os.Getppid())
	}
}

// Each mapping of an smaps listing goes to its part: the C heap, shared
// memory (a name with spaces), anonymous mappings, stacks and the written
// pages of a mapped file; the kernel's own mappings to none.
func TestParseSmapsParts(t *testing.T) {
	const smaps = `55d0c0000000-55d0c0002000 r--p 00000000 fe:00 247278                     /usr/bin/app
Pss:                   4 kB
Anonymous:             0 kB
55d0c0002000-55d0c0004000 rw-p 00002000 fe:00 247278                     /usr/bin/app
Pss:                   8 kB
Anonymous:             6 kB
55d0c1000000-55d0c2000000 rw-p 00000000 00:00 0                          [heap]
Pss:                 100 kB
Anonymous:           100 kB
7f0000000000-7f0000100000 rw-p 00000000 00:00 0 
Pss:                  30 kB
Anonymous:            30 kB
7f0000100000-7f0000200000 rw-s 00000000 00:01 1234                       /memfd:WebKitSharedMemory (deleted)
Pss:                  50 kB
Anonymous:             0 kB
7f0000200000-7f0000300000 rw-p 00000000 00:00 0                          [anon:glibc: malloc arena]
Pss:                   7 kB
Anonymous:             7 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
Pss:                  12 kB
Anonymous:            12 kB
7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0                          [vdso]
Pss:                   1 kB
Anonymous:             0 kB
`
	got := parseSmaps(strings.NewReader(smaps))
	want := MemParts{CHeap: 100, Shm: 50, Anon: 37, Other: 18}
	if got != want {
		t.Fatalf("parseSmaps = %+v, want %+v", got, want)
	}
	if s := got.String("app"); s != "app_cheap=100 app_shm=50 app_anonx=37 app_otherx=18" {
		t.Fatalf("String: %s", s)
	}
}

// This process's parts are read, and add up to about its memory that is
// not of files (smaps_rollup's Pss_Anon + Pss_Shmem).
func TestMemPartsOfSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	_, anon := pssKiB(os.Getpid())
	m := memParts(os.Getpid())
	sum := m.CHeap + m.Shm + m.Anon + m.Other
	if m.Anon <= 0 || sum < anon/2 || sum > anon*2 {
		t.Fatalf("parts %+v (sum %d KiB) against Pss_Anon+Pss_Shmem %d KiB", m, sum, anon)
	}
}

// WebMem counts WebKit's processes under this one, by their program's
// name, and nothing else: the soak's per-turn line of the web process's
// memory, between two full samples.
func TestWebMemCountsWebKitChildrenOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if pss, anon, cpu := WebMem(); pss != 0 || anon != 0 || cpu != 0 {
		t.Fatalf("WebMem without WebKit children = %d, %d KiB, %d ms", pss, anon, cpu)
	}
	other := exec.Command("sleep", "30")
	web := exec.Command("sleep", "30")
	web.Args[0] = "WebKitWebProcess" // what procName reads: the first argument
	for _, c := range []*exec.Cmd{other, web} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	}
	// PSS moves while the children finish starting (a shared page's share
	// shrinks as another process maps it), so the two reads may straddle a
	// change: read again until they agree. Counting the other child would
	// keep WebMem near twice the WebKit child's figure, never equal.
	var pss, anon, wpss int64
	for range 100 {
		pss, anon, _ = WebMem()
		wpss, _ = pssKiB(web.Process.Pid)
		if pss == wpss {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pss <= 0 || anon <= 0 || anon > pss {
		t.Fatalf("WebMem with a WebKit child = %d, %d KiB", pss, anon)
	}
	if pss != wpss {
		t.Fatalf("WebMem = %d KiB PSS, the WebKit child alone %d: the other child counted", pss, wpss)
	}
}

// cpuMillis reads this process's CPU time, which a busy loop moves.
func TestCPUMillisOfSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	before := cpuMillis(os.Getpid())
	x := 0
	for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
		x++
	}
	if after := cpuMillis(os.Getpid()); after <= before || x == 0 {
		t.Fatalf("CPU time %d ms, then %d ms after 100 ms of work", before, after)
	}
}
