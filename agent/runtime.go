// Package agent is Juncture's agent runtime: a long-lived service that runs
// agent turns for many threads, streams every step as AG-UI 1.0 events, runs
// tools, and stops exactly as documented at any moment.
//
// Guarantees:
//   - One turn at a time per thread. Input sent while a turn runs is queued,
//     never dropped, and starts when the turn ends (Stop included: Stop ends
//     the current turn, then queued input is sent in order; the person can
//     remove queued input first).
//   - Stop (Interrupt) is a no-op when idle or repeated, never kills the
//     runtime, and never leaks into the next turn. Its three situations:
//     while the model streams (partial text kept and marked, incomplete
//     reasoning and every tool call of that message dropped, RUN_FINISHED
//     cancelled emitted before anything is saved); while a decision is pending
//     (each pending tool gets "Interrupted", no model call follows); while
//     tools run (a MustComplete tool finishes, an Abortable one is cancelled,
//     tools not started get "Interrupted").
//   - Every run ends with exactly one RUN_FINISHED or RUN_ERROR, and the
//     partial state of a run is saved before the thread's next turn starts.
//   - The history sent to the model is always valid (history.ForModel).
//   - A tool call id executes at most once: the execution is recorded before
//     the tool runs.
//   - A call whose tool needs approval, and that no remembered rule covers,
//     never runs unanswered: its approval request is stored, then the run
//     ends with an interrupt outcome. Resume answers the whole batch (all or
//     nothing) in a continuation run; new input cancels the batch; Stop
//     answers each waiting call "Interrupted" without a model call.
//   - ask_user questions and middleware questions (generic interrupts,
//     raised at beforeModel, afterModel, beforeTools or afterTools; the
//     loop guard is one) join the same batch and follow the same rules;
//     answers are validated against the question's schema before anything
//     changes. Stored items whose binding cannot be read are unbound:
//     listed, never answerable, never blocking.
//   - A client tool call (tools.Tool.Client) is recorded pending before
//     the run ends RUN_FINISHED success with pendingToolCallIds; it is
//     never run by the runtime and never re-run after a restart.
//     CompleteClientTools records the results once every pending call of
//     that run has one, in a continuation run; new input cancels them.
//
// The runtime owns one goroutine per running turn (plus one stream reader
// while the model streams); Shutdown stops and waits for all of them.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/model"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// Errors returned by the runtime.
var (
	ErrClosed        = errors.New("the agent runtime is shut down")
	ErrNotConfigured = errors.New("no model endpoint is configured")
	ErrEmptyInput    = errors.New("the message is empty")
	ErrBusy          = errors.New("the thread is already running a turn")
)

// Store is the persistence the runtime needs. Writes of one record are
// atomic; PutMessage supersedes any pending Checkpoint of the same message.
type Store interface {
	CreateThread(ctx context.Context, t history.Thread) error
	Messages(ctx context.Context, threadID string) ([]history.Message, error)
	PutMessage(ctx context.Context, m history.Message) error
	// Checkpoint records a streaming snapshot without blocking; it is
	// written within a bounded delay (or superseded by PutMessage).
	Checkpoint(m history.Message)
	PutRun(ctx context.Context, r history.Run) error
	// BeginToolExecution records that a tool call is about to run. If the
	// call already has a record it returns it and records nothing.
	BeginToolExecution(ctx context.Context, e history.ToolExecution) (prior *history.ToolExecution, err error)
	FinishToolExecution(ctx context.Context, e history.ToolExecution) error
	// LatestRun returns the thread's most recent run (store.ErrNotFound
	// when it has none); the interrupt generation is carried from it.
	LatestRun(ctx context.Context, threadID string) (history.Run, error)
	// PutInterrupts stores pause items (upsert by id) in one transaction.
	PutInterrupts(ctx context.Context, its []history.Interrupt) error
	// PendingInterrupts returns the thread's pending items in stored order.
	PendingInterrupts(ctx context.Context, threadID string) ([]history.Interrupt, error)
	// ResolveInterrupts answers pending items, all or nothing
	// (*store.ConflictError when one is not pending).
	ResolveInterrupts(ctx context.Context, threadID string, res []store.Resolution) error
	// PermissionRules returns the remembered "Always allow" rules.
	PermissionRules(ctx context.Context) ([]history.PermissionRule, error)
	// PutClientToolCall stores a frontend-executed call (upsert by id).
	PutClientToolCall(ctx context.Context, c history.ClientToolCall) error
	// PendingClientToolCalls returns the thread's pending client calls.
	PendingClientToolCalls(ctx context.Context, threadID string) ([]history.ClientToolCall, error)
	// ClientToolCall returns one client call (store.ErrNotFound if none).
	ClientToolCall(ctx context.Context, toolCallID string) (history.ClientToolCall, error)
}

// ModelSource returns the client for the current settings, or
// ErrNotConfigured. It is called once per turn, so settings changes apply to
// the next turn.
type ModelSource func() (*model.Client, error)

// ToolSource returns the tools for the next turn (settings such as the
// workspace folder apply from the next turn on). It may return nil.
type ToolSource func() *tools.Registry

// Options configure a Runtime.
type Options struct {
	Store Store
	Model ModelSource
	Tools ToolSource // may be nil: no tools
	// Workspace returns the folder permission rules are matched in (nil:
	// the zero Workspace, so folder rules never match).
	Workspace func() tools.Workspace
	System    string // system prompt
	Logger    *slog.Logger
	// Retry policy for endpoint errors that may pass (429, 5xx, refused,
	// a stream cut before any output).
	MaxAttempts int           // default 3
	BackoffBase time.Duration // default 500 ms; doubled per attempt; Retry-After wins
	BackoffMax  time.Duration // default 30 s
	// CheckpointEvery bounds how often streaming text is checkpointed
	// (default 50 ms; the store adds its own write delay).
	CheckpointEvery time.Duration
	// MaxSteps ends a turn after this many model calls (a safety net until
	// the loop guard asks the person; default 50).
	MaxSteps int
	// LoopGuard asks the person "keep going?" before a model call once a
	// run made this many model calls (default 25; negative: never).
	LoopGuard int
	// LoopGuardSource, when set, is read at each check instead (settings).
	LoopGuardSource func() int
	// Middleware may pause runs at the four boundaries (generic interrupts).
	Middleware []Middleware
	// DisableAskUser hides the built-in ask_user tool.
	DisableAskUser bool
	Now            func() time.Time
}

// Runtime runs turns for many threads.
type Runtime struct {
	opts   Options
	log    *slog.Logger
	bus    *bus
	baseCx context.Context
	cancel context.CancelFunc

	mws     []Middleware
	schemas *interrupt.SchemaCache

	// clientMu serialises client tool results; staged holds results given
	// while other client calls of the same run still wait, by thread.
	clientMu sync.Mutex
	staged   map[string]map[string]clientResult

	mu      sync.Mutex
	threads map[string]*thread
	closed  bool
	turns   sync.WaitGroup
}

// thread is the in-memory handle of one thread; small, so idle threads
// cost little. Fields are guarded by Runtime.mu.
type thread struct {
	id      string
	running bool
	runID   string
	stop    context.CancelFunc // stops the current turn
	stopped bool               // Stop was requested for the current turn
	queue   []Input
}

// Input starts (or queues) a turn.
type Input struct {
	ThreadID    string
	RunID       string // chosen by an AG-UI client; generated when empty
	ParentRunID string
	Text        string            // the person's message; may be empty for a continuation
	Messages    []history.Message // messages to append first (AG-UI clients), by id

	// Set by the runtime for runs that are not plain turns.
	kind          inputKind
	decisions     []decision     // kindResume
	refusal       *agui.RunError // kindRefused
	clientResults []clientResult // kindClientResults
}

// New returns a started runtime.
func New(opts Options) *Runtime {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.BackoffBase <= 0 {
		opts.BackoffBase = 500 * time.Millisecond
	}
	if opts.BackoffMax <= 0 {
		opts.BackoffMax = 30 * time.Second
	}
	if opts.CheckpointEvery <= 0 {
		opts.CheckpointEvery = 50 * time.Millisecond
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 50
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LoopGuard == 0 {
		opts.LoopGuard = DefaultLoopGuard
	}
	mws := append([]Middleware(nil), opts.Middleware...)
	if opts.LoopGuardSource != nil {
		mws = append([]Middleware{loopGuard(opts.LoopGuardSource)}, mws...)
	} else if opts.LoopGuard > 0 {
		mws = append([]Middleware{LoopGuard(opts.LoopGuard)}, mws...)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Runtime{opts: opts, log: opts.Logger, bus: newBus(), baseCx: ctx, cancel: cancel, threads: make(map[string]*thread),
		mws: mws, schemas: interrupt.NewSchemaCache(0), staged: map[string]map[string]clientResult{}}
}

// Subscribe returns a subscription to one thread's envelopes ("" = all).
func (rt *Runtime) Subscribe(threadID string) *Subscription {
	s := rt.bus.subscribe(threadID)
	rt.mu.Lock()
	closed := rt.closed
	rt.mu.Unlock()
	if closed {
		s.Close()
	}
	return s
}

// NewID returns a random id with a prefix ("msg", "run", "call", …).
func NewID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

func (rt *Runtime) now() int64 { return rt.opts.Now().UnixMilli() }

func (rt *Runtime) handle(id string) *thread {
	t := rt.threads[id]
	if t == nil {
		t = &thread{id: id}
		rt.threads[id] = t
	}
	return t
}

// SendInput sends the person's message to a thread, starting a turn or
// queueing it behind the running one. It returns whether it was queued.
func (rt *Runtime) SendInput(ctx context.Context, threadID, text string) (queued bool, err error) {
	if text == "" {
		return false, ErrEmptyInput
	}
	_, queued, err = rt.Start(ctx, Input{ThreadID: threadID, Text: text})
	return queued, err
}

// Start starts a turn for in, or queues it when the thread is busy. It
// returns the run id (empty when queued).
func (rt *Runtime) Start(ctx context.Context, in Input) (runID string, queued bool, err error) {
	if in.ThreadID == "" {
		return "", false, fmt.Errorf("starting a turn: thread id is empty")
	}
	if _, err := rt.opts.Model(); err != nil {
		return "", false, err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return "", false, ErrClosed
	}
	t := rt.handle(in.ThreadID)
	if t.running {
		t.queue = append(t.queue, in)
		rt.publishQueue(t)
		return "", true, nil
	}
	if in.RunID == "" {
		in.RunID = NewID("run")
	}
	rt.launch(t, in)
	return in.RunID, false, nil
}

// StartExclusive starts a turn only if the thread is idle (AG-UI clients
// expect their run to start now, not later).
func (rt *Runtime) StartExclusive(ctx context.Context, in Input) error {
	if _, err := rt.opts.Model(); err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return ErrClosed
	}
	t := rt.handle(in.ThreadID)
	if t.running {
		return ErrBusy
	}
	if in.RunID == "" {
		in.RunID = NewID("run")
	}
	rt.launch(t, in)
	return nil
}

// launch starts the turn goroutine. rt.mu is held.
func (rt *Runtime) launch(t *thread, in Input) {
	ctx, stop := context.WithCancel(rt.baseCx)
	t.running, t.runID, t.stop, t.stopped = true, in.RunID, stop, false
	rt.turns.Add(1)
	go rt.drive(t, ctx, stop, in)
}

// drive runs in, then the queued input, until the queue is empty. The
// thread is marked running and rt.turns counts this goroutine.
func (rt *Runtime) drive(t *thread, ctx context.Context, stop context.CancelFunc, in Input) {
	defer rt.turns.Done()
	for {
		rt.runTurn(ctx, in)
		stop()
		rt.mu.Lock()
		if len(t.queue) == 0 || rt.closed {
			left := t.queue
			t.queue = nil
			t.running, t.runID, t.stop, t.stopped = false, "", nil, false
			rt.mu.Unlock()
			rt.keepUnsent(t.id, left)
			return
		}
		in = t.queue[0]
		t.queue = t.queue[1:]
		if in.RunID == "" {
			in.RunID = NewID("run")
		}
		ctx, stop = context.WithCancel(rt.baseCx)
		t.runID, t.stop, t.stopped = in.RunID, stop, false
		rt.publishQueue(t)
		rt.mu.Unlock()
	}
}

// Interrupt stops the thread's current turn (see the package doc for the
// exact effects). It does not wait: the run's terminal event follows at
// once while streaming, or after a MustComplete tool finishes. When no turn
// runs but approvals are pending, a short run answers each pending call
// "Interrupted" (no model call). Idle or repeated calls are no-ops.
func (rt *Runtime) Interrupt(threadID string) {
	rt.mu.Lock()
	t := rt.threads[threadID]
	if t != nil && t.running {
		if !t.stopped {
			t.stopped = true
			t.stop()
		}
		rt.mu.Unlock()
		return
	}
	closed := rt.closed
	rt.mu.Unlock()
	if !closed {
		rt.stopPending(threadID)
	}
}

// InterruptAll stops every running turn, as Interrupt does for each.
func (rt *Runtime) InterruptAll() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, t := range rt.threads {
		if t.running && !t.stopped {
			t.stopped = true
			t.stop()
		}
	}
}

// Busy reports whether any thread has a turn running.
func (rt *Runtime) Busy() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, t := range rt.threads {
		if t.running {
			return true
		}
	}
	return false
}

// Running reports whether the thread has a turn running, and its run id.
func (rt *Runtime) Running(threadID string) (bool, string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.threads[threadID]
	if t == nil {
		return false, ""
	}
	return t.running, t.runID
}

// Queued returns the texts waiting behind the running turn.
func (rt *Runtime) Queued(threadID string) []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.threads[threadID]
	if t == nil {
		return []string{}
	}
	return queueTexts(t)
}

// RemoveQueued drops queued input i (the person changed their mind).
func (rt *Runtime) RemoveQueued(threadID string, i int) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.threads[threadID]
	if t == nil || i < 0 || i >= len(t.queue) {
		return fmt.Errorf("removing queued input %d: no such input", i)
	}
	t.queue = append(t.queue[:i], t.queue[i+1:]...)
	rt.publishQueue(t)
	return nil
}

func queueTexts(t *thread) []string {
	out := make([]string, 0, len(t.queue))
	for _, in := range t.queue {
		out = append(out, in.Text)
	}
	return out
}

// publishQueue announces the queue; rt.mu is held.
func (rt *Runtime) publishQueue(t *thread) {
	rt.bus.publish(Envelope{Name: EnvelopeQueue, ThreadID: t.id, Queued: queueTexts(t)})
}

// Shutdown stops every running turn as Interrupt does, saves queued input as
// unanswered messages (never lost, never run by itself), waits for the turns
// to save their state, and closes every subscription. It returns
// ctx's error if the turns did not finish in time.
func (rt *Runtime) Shutdown(ctx context.Context) error {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return nil
	}
	rt.closed = true
	for _, t := range rt.threads {
		if t.running && !t.stopped {
			t.stopped = true
			t.stop()
		}
	}
	rt.mu.Unlock()
	done := make(chan struct{})
	go func() { rt.turns.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("shutting down the agent runtime: %w", ctx.Err())
	}
	rt.cancel()
	rt.bus.closeAll()
	return err
}

func (rt *Runtime) emit(threadID string, ev agui.Event) {
	rt.bus.publish(Envelope{Name: EnvelopeAGUI, ThreadID: threadID, Event: ev})
}
