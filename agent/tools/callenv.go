package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"

	"github.com/juncture-app/juncture/agent/history"
)

// Part is a piece of a tool result beyond its text (history.Part).
type Part = history.Part

// Part kinds.
const (
	PartImage      = history.PartImage
	PartLink       = history.PartLink
	PartStructured = history.PartStructured
	PartResource   = history.PartResource
	PartApp        = history.PartApp
)

// Progress is a running call's report (MCP notifications/progress).
// Total is 0 when the server does not know it.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// Prompt is something a running tool asks the person before it can go on
// (an MCP server's elicitation or sampling request).
type Prompt struct {
	Kind    string // PromptQuestion | PromptURL | PromptSampling
	Source  string // who asks, as the person reads it (the server's title)
	Message string
	// Schema is the JSON Schema the answer of a PromptQuestion must match.
	Schema json.RawMessage
	URL    string // PromptURL: the page the server asks the person to open
	// Details are shown on the card as they are (a sampling request's
	// messages, its token limit, the model that would answer).
	Details map[string]any
}

// Prompt kinds.
const (
	PromptQuestion = "question" // a form generated from Schema
	PromptURL      = "url"      // open URL, then say done
	PromptSampling = "sampling" // let the server ask the model: approve or deny
)

// Reply is the person's answer to a Prompt.
type Reply struct {
	Action  string          // ReplyAccept | ReplyDecline | ReplyCancel
	Content json.RawMessage // ReplyAccept of a PromptQuestion: the answer, valid for Schema
	Reason  string          // ReplyDecline of a PromptSampling: why, when given
}

// Reply actions (MCP's elicitation actions; a sampling approval is accept
// or decline).
const (
	ReplyAccept  = "accept"
	ReplyDecline = "decline"
	ReplyCancel  = "cancel"
)

// ErrNoPerson is returned by Ask when the call runs where nobody can answer
// (no CallEnv in its context): the tool must decline on the person's behalf.
var ErrNoPerson = errors.New("tools: nobody can answer this request here")

// CallEnv is what the runtime offers a call while it runs. The runtime
// puts one in the context Execute passes to Run.
type CallEnv interface {
	// Progress reports how far the call got; the runtime shows it live
	// and may drop reports that come faster than it can show them.
	Progress(Progress)
	// Ask pauses for the person: it returns their reply, or an error when
	// the call was stopped or the app cannot ask (ctx ends it too).
	Ask(ctx context.Context, p Prompt) (Reply, error)
}

type callEnvKey struct{}

// WithCallEnv returns a context that carries env to a tool's Run.
func WithCallEnv(ctx context.Context, env CallEnv) context.Context {
	return context.WithValue(ctx, callEnvKey{}, env)
}

// ReportProgress reports a running call's progress, if anyone listens.
func ReportProgress(ctx context.Context, p Progress) {
	if env, ok := ctx.Value(callEnvKey{}).(CallEnv); ok && env != nil {
		env.Progress(p)
	}
}

// Ask asks the person on behalf of a running call. Without a CallEnv in
// ctx it returns ErrNoPerson.
func Ask(ctx context.Context, p Prompt) (Reply, error) {
	env, ok := ctx.Value(callEnvKey{}).(CallEnv)
	if !ok || env == nil {
		return Reply{}, ErrNoPerson
	}
	return env.Ask(ctx, p)
}

// ServerProcess is a long-running program started in a process group of
// its own (an MCP stdio server), owned by a Processes set: Close of the
// set ends it with everything it started.
type ServerProcess struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	g      *Processes
	pg     *procGroup
	done   chan struct{}
	err    error
}

// StartServer starts cmd as a server in its own process group (a Job
// Object on Windows) with its pipes connected. cmd.Env must be set (see
// ServerEnv); cmd.Stderr may be set by the caller. The process is reaped
// by the set; Wait reports how it ended.
func (g *Processes) StartServer(cmd *exec.Cmd) (*ServerProcess, error) {
	if cmd.Env == nil {
		return nil, errors.New("tools: a server's environment must be set explicitly")
	}
	groupAttrs(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("connecting to the server's input: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("connecting to the server's output: %w", err)
	}
	pg, err := g.start(cmd)
	if err != nil {
		return nil, err
	}
	sp := &ServerProcess{Stdin: stdin, Stdout: stdout, g: g, pg: pg, done: make(chan struct{})}
	go func() {
		sp.err = cmd.Wait()
		g.finish(pg)
		close(sp.done)
	}()
	return sp, nil
}

// Kill ends the server's whole process group at once.
func (p *ServerProcess) Kill() { p.pg.signal(true) }

// Terminate asks the server's process group to end (SIGTERM; on Windows
// the job is ended).
func (p *ServerProcess) Terminate() { p.pg.signal(runtime.GOOS == "windows") }

// Done is closed once the server's process has exited and been reaped.
func (p *ServerProcess) Done() <-chan struct{} { return p.done }

// Wait waits for the process to exit and returns how it ended.
func (p *ServerProcess) Wait() error { <-p.done; return p.err }

// ServerEnv is the environment of a server process: the same minimal set a
// command gets (PATH, HOME, USER, LANG, TMPDIR, …), never the app's
// secrets, plus extra (the server's own configured variables), which wins.
func ServerEnv(extra map[string]string) ([]string, error) { return commandEnv(extra) }
