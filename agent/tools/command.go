package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/sandbox"
)

// outputDrain is how long run_command keeps reading output after the shell
// exits, for background processes that inherited the output pipe.
const outputDrain = 500 * time.Millisecond

type commandArgs struct {
	Command        string   `json:"command"`
	TimeoutSeconds int      `json:"timeoutSeconds"`
	Network        string   `json:"network"`
	Ports          []uint16 `json:"ports"`
	Hosts          []string `json:"hosts"`
}

// policy is the sandbox policy of a command: it writes in the workspace
// only, and reaches the network its call asked for (none by default),
// which the person saw on the card.
func (a commandArgs) policy(root string) sandbox.Policy {
	p := sandbox.Policy{Write: []string{root}, Network: a.Network, Read: gitConfigFiles()}
	switch a.Network {
	case sandbox.NetPorts:
		p.Ports = a.Ports
	case sandbox.NetHosts:
		p.Hosts = a.Hosts
	}
	return p
}

// gitConfigFiles are git's settings in the home folder (name, e-mail,
// aliases): a command may read them so that git in the workspace works as
// the person set it up. Not ~/.git-credentials nor ~/.config/git/credentials.
func gitConfigFiles() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".config", "git", "ignore")}
}

func runCommandTool(w Workspace, opts BuiltinOptions) Tool {
	return Tool{
		Name: ToolRunCommand,
		Description: "Run a shell command in the workspace folder (" + shellName + "). Output (stdout and " +
			"stderr together) is capped at 64 KiB, keeping the start and the end. The person approves each " +
			"command. Commands time out after 120 seconds unless timeoutSeconds says otherwise. Nothing the " +
			"command starts outlives it: when it returns, every process it left behind (such as `server &`) " +
			"is stopped, so do not use it to start a server or daemon that should keep running. The " +
			"environment is minimal (PATH, HOME, the locale and what the person configured), without the " +
			"app's own variables. The command runs in a sandbox: it can read only the system and the workspace, write only in the workspace " +
			"(and TMPDIR, a private temporary folder), and reach no network unless network says otherwise " +
			"(\"local\", \"ports\" with ports, \"hosts\" with hosts, or \"any\"; the person sees it before approving). " +
			"With \"local\" and \"hosts\" connections go through the sandbox's HTTP proxy (HTTP_PROXY, HTTPS_PROXY are set): " +
			"use a client that honours them (curl, pip, git over https).",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command line to run."},
    "timeoutSeconds": {"type": "integer", "minimum": 1, "maximum": 3600, "description": "Stop the command after this many seconds. Default: 120."},
    "network": {"type": "string", "enum": ["none", "local", "ports", "hosts", "any"], "description": "What the command may connect to: none (default), local (this machine, through the sandbox's proxy), ports (TCP to the ports listed in ports), hosts (the hosts listed in hosts, through the sandbox's proxy), any."},
    "ports": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 65535}, "maxItems": 32, "description": "With network \"ports\": the TCP ports the command may connect to."},
    "hosts": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 255}, "maxItems": 32, "description": "With network \"hosts\": the hosts the command may reach, such as \"pypi.org\" (ports 80 and 443), \"*.github.com\" or \"example.com:8443\"."}
  },
  "required": ["command"],
  "additionalProperties": false
}`),
		OnStop:        Abortable,
		NeedsApproval: always,
		Preview: withArgs(func(_ context.Context, a commandArgs) (Preview, error) {
			root, err := w.root()
			if err != nil {
				return Preview{}, err
			}
			st := opts.Sandbox.Plan(a.policy(root))
			return Preview{Kind: PreviewCommand, Title: "Run a command", Body: a.Command, Folder: root, Sandbox: st.String()}, nil
		}),
		Run: withArgs(func(ctx context.Context, a commandArgs) (Result, error) { return runCommand(ctx, w, a, opts) }),
	}
}

// runCommand runs a.Command in its own process group with the minimal
// environment. On Stop (ctx done) or timeout the group gets a polite
// signal, then a kill after grace. The call returns only once the shell
// has been reaped and whatever it left running has been killed.
func runCommand(ctx context.Context, w Workspace, a commandArgs, opts BuiltinOptions) (Result, error) {
	root, err := w.root()
	if err != nil {
		return Result{}, err
	}
	grace := opts.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	timeout := DefaultCommandTimeout
	if a.TimeoutSeconds > 0 {
		timeout = min(time.Duration(a.TimeoutSeconds)*time.Second, MaxCommandTimeout)
	}
	if ctx.Err() != nil {
		return Result{Content: history.ResultInterrupted, IsError: true}, nil
	}
	env, err := commandEnv(opts.ExtraEnv)
	if err != nil {
		return Result{}, fmt.Errorf("cannot start the command: %w", err)
	}

	out := &capBuffer{limit: MaxCommandOutput}
	cmd := shellCommand(a.Command)
	cmd.Dir = root
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = outputDrain
	box, unbox, err := opts.Sandbox.Wrap(cmd, a.policy(root))
	if err != nil {
		return Result{}, fmt.Errorf("cannot start the command: %w", err)
	}
	defer unbox()
	procs := opts.Processes
	if procs == nil {
		procs = running
	}
	pg, err := procs.start(cmd)
	if err != nil {
		return Result{}, fmt.Errorf("cannot start the command: %w", err)
	}
	defer procs.finish(pg)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// The time limit is the command's: it starts once the sandbox's child
	// has started it.
	select {
	case <-sandbox.Started(cmd):
	case <-ctx.Done():
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	aborted, timedOut := false, false
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		aborted = true
		waitErr = terminate(pg, done, grace)
	case <-timer.C:
		timedOut = true
		waitErr = terminate(pg, done, grace)
	}

	output := out.String()
	if refused := sandbox.Refused(cmd); len(refused) > 0 {
		output += "\n[" + sandbox.RefusedByProxy + ": connections to " + strings.Join(refused, ", ") + " (not allowed by this command's network).]\n"
	}
	shown := output
	if shown == "" {
		shown = "(no output)"
	}
	switch {
	case aborted:
		return Result{Content: history.ResultInterruptedMidRun + "\n\nOutput so far:\n" + shown, IsError: true, Sandbox: box.String()}, nil
	case timedOut:
		return Result{Content: fmt.Sprintf("Command timed out after %s and was stopped; side effects unknown.\n\nOutput so far:\n%s",
			timeout, shown), IsError: true, Sandbox: box.String()}, nil
	}
	var b strings.Builder
	res := Result{Sandbox: box.String()}
	st := cmd.ProcessState
	switch {
	case st == nil:
		res.IsError = true
		fmt.Fprintf(&b, "Command failed: %v\n", waitErr)
	case st.ExitCode() == -1:
		res.IsError = true
		fmt.Fprintf(&b, "Command ended abnormally (%s)\n", st)
	default:
		res.IsError = st.ExitCode() != 0
		fmt.Fprintf(&b, "Exit code: %d\n", st.ExitCode())
	}
	var exitErr *exec.ExitError
	switch {
	case errors.Is(waitErr, exec.ErrWaitDelay):
		b.WriteString("[Background processes kept the output open; they were stopped, and output after the command exited is not shown.]\n")
	case waitErr != nil && st != nil && !errors.As(waitErr, &exitErr):
		fmt.Fprintf(&b, "[Reading the output failed: %v]\n", waitErr)
	}
	b.WriteString(box.String())
	b.WriteString("\n\n")
	b.WriteString(shown)
	if note := sandbox.Explain(box, output); note != "" && res.IsError {
		b.WriteString("\n")
		b.WriteString(note)
	}
	res.Content = b.String()
	return res, nil
}

// terminate stops the command's process group: the polite signal first,
// the kill after grace. It returns cmd.Wait's error.
func terminate(pg *procGroup, done <-chan error, grace time.Duration) error {
	pg.signal(false)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		if !errors.Is(err, exec.ErrWaitDelay) {
			// The shell and everything holding its output are gone;
			// stragglers that closed their output are killed by
			// running.finish.
			return err
		}
		// Something in the group outlived the shell and kept the output
		// open: it gets the rest of its grace, then the kill.
		<-t.C
		pg.signal(true)
		return err
	case <-t.C:
	}
	pg.signal(true)
	return <-done
}

// capBuffer keeps the first and the last limit/2 bytes written to it and
// counts the rest.
type capBuffer struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte
	total int64
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.total += int64(n)
	half := c.limit / 2
	if room := half - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > half {
		p = p[len(p)-half:]
	}
	c.tail = append(c.tail, p...)
	if len(c.tail) > half {
		k := copy(c.tail, c.tail[len(c.tail)-half:])
		c.tail = c.tail[:k]
	}
	return n, nil
}

// String returns the kept output, with a note where bytes were dropped.
func (c *capBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	omitted := c.total - int64(len(c.head)) - int64(len(c.tail))
	if omitted <= 0 {
		return strings.ToValidUTF8(string(c.head)+string(c.tail), "\uFFFD")
	}
	head := completeRunes(c.head)
	tail := c.tail
	for i := 0; i < utf8.UTFMax && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	omitted += int64(len(c.head)-len(head)) + int64(len(c.tail)-len(tail))
	return strings.ToValidUTF8(fmt.Sprintf("%s\n… %d bytes omitted …\n%s", head, omitted, tail), "\uFFFD")
}

// completeRunes drops a UTF-8 sequence cut short at the end of b.
func completeRunes(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return b
			}
			return b[:i]
		}
	}
	return b
}
