package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveChildEnv makes TestServeChild run `juncture serve` in this process
// (the test binary re-executed by TestServeTwiceRefused).
const serveChildEnv = "JUNCTURE_SERVE_TEST_CHILD"

func TestServeChild(t *testing.T) {
	if os.Getenv(serveChildEnv) == "" {
		t.Skip("helper process of TestServeTwiceRefused")
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := serve([]string{"--addr", "127.0.0.1:0"}, logger); err != nil {
		os.Stderr.WriteString("juncture: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// Issue 19, defect 6: a second `juncture serve` on a data folder a running
// one holds refuses with a clear message and a non-zero exit, and the
// first keeps serving.
func TestServeTwiceRefused(t *testing.T) {
	home := t.TempDir()
	env := append(os.Environ(), serveChildEnv+"=1",
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "JUNCTURE_WORKSPACE="+filepath.Join(home, "ws"),
		"JUNCTURE_KEY_STORAGE=file", "OPENAI_BASE_URL=http://127.0.0.1:9/v1", "JUNCTURE_MODEL=m", "JUNCTURE_TOKEN=t")
	// A hang guard (an old build serves twice, forever), not a timing
	// assertion: the refusal comes in well under a second.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestServeChild$")
		cmd.Env = env
		return cmd
	}

	first := run()
	out, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	first.Stderr = os.Stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = first.Process.Kill()
		_ = first.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "Juncture is running.") {
		t.Fatalf("first serve said %q, %v", line, err)
	}

	second := run()
	var stdout, stderr bytes.Buffer
	second.Stdout, second.Stderr = &stdout, &stderr
	err = second.Run()
	if strings.Contains(stdout.String(), "Juncture is running") {
		t.Fatalf("a second serve ran on the same data folder: %s", stdout.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("second serve: %v (stderr %q), want a non-zero exit", err, stderr.String())
	}
	msg := stderr.String()
	folder := filepath.Join(home, "data", "juncture")
	if !strings.Contains(msg, "in use by another Juncture") || !strings.Contains(msg, folder) {
		t.Errorf("second serve's message does not say the folder %s is in use:\n%s", folder, msg)
	}
	t.Logf("second serve said: %s", msg)
	if first.ProcessState != nil {
		t.Error("the first serve stopped")
	}
}
