package update

import (
	"os"
	"os/exec"
	"strconv"
	"time"
)

// WaitPIDEnv tells a restarted Juncture the process id of the one it
// replaces: the new one waits for it to exit before opening the data
// folder (one Juncture per folder) and the window (one instance).
const WaitPIDEnv = "JUNCTURE_WAIT_PID"

// RestartCommand starts exe after this process exits, opening openURL
// (a juncture:// link to the open chat) when it is not empty.
func RestartCommand(exe, openURL string) *exec.Cmd {
	var args []string
	if openURL != "" {
		args = append(args, openURL)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), WaitPIDEnv+"="+strconv.Itoa(os.Getpid()))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd
}

// WaitForPredecessor blocks, up to limit, while the process named by
// WaitPIDEnv still runs (a no-op when it is not set).
func WaitForPredecessor(limit time.Duration) {
	pid, err := strconv.Atoi(os.Getenv(WaitPIDEnv))
	os.Unsetenv(WaitPIDEnv)
	if err != nil || pid <= 0 {
		return
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && processAlive(pid) {
		time.Sleep(100 * time.Millisecond)
	}
}
