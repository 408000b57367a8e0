package benchprobe

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
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
	if str := with.String(); !strings.Contains(str, "kids=") || !strings.Contains(str, "app_anon=") {
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
