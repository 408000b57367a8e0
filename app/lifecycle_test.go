package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
)

// inFreshProcess runs the calling test again, alone, in a new process of
// the test binary and reports whether it did (the caller then returns);
// in that process it returns false and the test runs. Tests that run
// commands need it: Service.Shutdown calls tools.KillAll, which makes
// run_command refuse every command for the rest of the process, and every
// earlier test's cleanup shuts a service down.
func inFreshProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv("JUNCTURE_FRESH_PROCESS") == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "JUNCTURE_FRESH_PROCESS="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%s in a fresh process: %v\n%s", t.Name(), err, out)
	}
	return true
}

func commandCall(id, command string) fakellm.Step {
	b, _ := json.Marshal(map[string]string{"command": command})
	return fakellm.ToolCall(0, id, "run_command", string(b))
}

// DeleteThread while a tool runs stops the run and waits until it has
// settled (the runtime's StopAndWait) before deleting: the command that
// ignores the polite signal finishes, and the thread is gone for good.
func TestDeleteThreadWaitsForARunningTool(t *testing.T) {
	if inFreshProcess(t) {
		return
	}
	f := newFixture(t, nil)
	ws := f.env["JUNCTURE_WORKSPACE"]
	// The shell and its sleep ignore SIGTERM: the command ends on its own
	// within the kill grace (2 s), so Stop has to wait for it.
	f.script(fakellm.Reply(commandCall("call-slow", "trap '' TERM; echo start > started.txt; sleep 1; echo end > ended.txt")),
		fakellm.Reply(fakellm.Text("unreachable")))
	sent := SendResult{ThreadID: f.sendApproved("run the slow command", "approval_call-slow")}
	waitFor(t, func() bool { _, err := os.Stat(filepath.Join(ws, "started.txt")); return err == nil })
	if running, _ := f.svc.Runtime().Running(sent.ThreadID); !running {
		t.Fatal("the run ended before the command did")
	}

	start := time.Now()
	if e := f.call(nil, "DeleteThread", sent.ThreadID); e != nil {
		t.Fatalf("DeleteThread while a tool runs: %v", e)
	}
	took := time.Since(start)
	if _, err := os.Stat(filepath.Join(ws, "ended.txt")); err != nil {
		t.Fatalf("DeleteThread returned after %v, before the command finished", took)
	}
	if running, _ := f.svc.Runtime().Running(sent.ThreadID); running {
		t.Fatal("the thread still runs after DeleteThread returned")
	}
	if took > 3*time.Second {
		t.Fatalf("DeleteThread took %v", took)
	}
	time.Sleep(200 * time.Millisecond) // nothing of the stopped run comes back
	if e := f.call(nil, "GetThread", sent.ThreadID); e == nil || e.Code != CodeNotFound {
		t.Fatalf("GetThread after delete: %+v", e)
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 0 {
		t.Fatalf("threads after delete: %+v %v", page, e)
	}
}

// The app's own secrets never reach a command: in browser mode, with
// OPENAI_API_KEY (the app's model key) and JUNCTURE_TOKEN (the browser
// token) in its environment, an approved `env` shows neither.
func TestCommandsDoNotSeeTheAppsSecrets(t *testing.T) {
	if inFreshProcess(t) {
		return
	}
	const key, token = "sk-test-secret-key-0123456789", "juncture-test-token-secret"
	// In the process environment, which a command could inherit…
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("JUNCTURE_TOKEN", token)
	// …and in what the app reads its settings from.
	f := newFixtureWith(t, nil, map[string]string{"OPENAI_API_KEY": key})
	f.script(fakellm.Reply(commandCall("call-env", "env")), fakellm.Reply(fakellm.Text("That is the environment.")))
	sent := SendResult{ThreadID: f.sendApproved("show me the environment", "approval_call-env")}
	f.waitIdle(sent.ThreadID)
	var v ThreadView
	f.must(&v, "GetThread", sent.ThreadID)
	var out string
	for _, m := range v.Messages {
		if m.Role == "tool" && m.ToolCallID == "call-env" {
			out = m.Content
		}
	}
	if v.ToolStates["call-env"] != contract.ToolDone || !strings.Contains(out, "Exit code: 0") || !strings.Contains(out, "PATH=") {
		t.Fatalf("state %q, output:\n%s", v.ToolStates["call-env"], out)
	}
	for _, secret := range []string{key, token, "OPENAI_API_KEY", "JUNCTURE_TOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("the command saw %q:\n%s", secret, out)
		}
	}
	// The app itself did use the key (the model endpoint got it).
	var sawKey bool
	for _, r := range f.fake.Requests() {
		if r.Header.Get("Authorization") == "Bearer "+key {
			sawKey = true
		}
	}
	if !sawKey {
		t.Error("the model endpoint never got the app's key: the test does not test what it claims")
	}
}
