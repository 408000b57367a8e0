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
//   - Every run ends with exactly one RUN_FINISHED or RUN_ERROR, and it is
//     the last thing the run does: everything the run wrote is saved
//     before it. (Stop while the model streams is the one exception, so
//     Stop is instant even with a stalled endpoint: the partial answer is
//     saved right after; every runtime call made after the terminal event
//     waits for that save, so no caller can observe the difference.)
//   - The history sent to the model is always valid (history.ForModel).
//   - A tool call executes at most once: the execution is recorded (per
//     thread and call id) before the tool runs. Call ids an endpoint
//     repeats (some number calls per response) are replaced by fresh ones,
//     so an old result is never replayed for a new call.
//   - Calls run in the model's order. Nothing after a call that waits on
//     the person (an approval, a question) or on the window (a client
//     action) starts before that call is settled.
//   - A call whose tool needs approval, and that no remembered rule covers,
//     never runs unanswered: its approval request is stored, then the run
//     ends with an interrupt outcome. Answer is the one way in for every
//     answer (approvals with their remember scope and edited arguments,
//     question answers, client action results, cancellations): partial
//     answers are kept durably; once every pending item of the run has one,
//     the batch is validated all or nothing, remembered rules are written
//     in the same transaction that settles it (first resolver wins), and a
//     continuation run picks up where the run paused. New input cancels
//     the batch; Stop answers each waiting call "Interrupted" without a
//     model call, and wins over a concurrent answer or is reported too late.
//   - ask_user questions and middleware questions (generic interrupts,
//     raised at beforeModel, afterModel, beforeTools or afterTools; the
//     loop guard is one) join the same batch and follow the same rules;
//     answers are validated against the question's schema before anything
//     changes. Stored items whose binding cannot be read are unbound:
//     listed, never answerable, never blocking.
//   - A client tool call (tools.Tool.Client) is recorded pending before
//     the run ends RUN_FINISHED success with pendingToolCallIds; it is
//     never run by the runtime and never re-run after a restart.
//     The window runs exactly the arguments that were approved. Its results
//     are answers like any other; new input cancels the calls.
//   - The loop guard and the step limit count model calls per turn (from
//     the person's message to a final answer), across continuations.
//   - Unbound interrupts (written by someone else) are never cancelled by
//     new input or Stop: they stay visible until their owner settles them.
//   - Events reach subscribers through one broker with two delivery
//     classes (see broker.go): deltas may be coalesced for a subscriber
//     that is behind, everything else is delivered, in order.
//
// The runtime owns one goroutine per running turn (plus one stream reader
// while the model streams) and one per title being written; Shutdown stops
// and waits for all of them.
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
	"github.com/juncture-app/juncture/agent/tools"
)

// Errors returned by the runtime.
var (
	ErrClosed        = errors.New("agent: the runtime is shut down")
	ErrNotConfigured = errors.New("agent: no model endpoint is configured")
	ErrEmptyInput    = errors.New("agent: the message is empty")
	ErrBusy          = errors.New("agent: the thread is already running a turn")
)

// ToolSource returns the tools for the next turn (settings such as the
// workspace folder apply from the next turn on). It may return nil.
type ToolSource func() *tools.Registry

// Options configure a Runtime.
type Options struct {
	Store Store
	Model ModelSource
	// Titles, when set, names untitled threads after their first exchange
	// (the model is asked; the person's first words are the fallback).
	Titles ThreadTitles
	Tools  ToolSource // may be nil: no tools
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
	// LoopGuard asks the person "keep going?" before a model call once the
	// turn made this many model calls (default 25; negative: never).
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
	st     Store
	log    *slog.Logger
	events *Broker
	baseCx context.Context
	cancel context.CancelFunc

	mws     []Middleware
	schemas *interrupt.SchemaCache

	// answerMu serialises answers (and the runs they start) per runtime:
	// answers are rare, and one lock keeps "first resolver wins" simple.
	answerMu sync.Mutex

	mu      sync.Mutex
	threads map[string]*thread
	closed  bool
	turns   sync.WaitGroup // turn goroutines and title writers
}

// thread is the in-memory handle of one thread; small, so idle threads
// cost little. Fields are guarded by Runtime.mu.
type thread struct {
	id string
	// running: a run owns the thread, from launch until it settled.
	running bool
	// finishing: the run's terminal event is out (or going out); callers
	// that act on it wait for settled, so they see the run's final state.
	finishing bool
	settled   chan struct{} // closed when the owning run has settled
	runID     string
	stop      context.CancelFunc // stops the current run
	stopped   bool               // Stop was requested for the current run
	queue     []Input
}

// Input starts (or queues) a turn.
type Input struct {
	ThreadID    string
	RunID       string // chosen by an AG-UI client; generated when empty
	ParentRunID string
	Text        string            // the person's message; may be empty for a continuation
	Messages    []history.Message // messages to append first (AG-UI clients), by id
	// MessageID names the person's message (the window's optimistic copy
	// keeps its id); generated when empty.
	MessageID string

	// Set by the runtime for runs that are not plain turns.
	kind      inputKind
	decisions map[string]decision // kindResume, by tool call id
	hooks     []decision          // kindResume: middleware answers
	refusal   *agui.RunError      // kindRefused
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
	return &Runtime{opts: opts, st: opts.Store, log: opts.Logger, events: NewBroker(), baseCx: ctx, cancel: cancel,
		threads: make(map[string]*thread), mws: mws, schemas: interrupt.NewSchemaCache(0)}
}

// Events is the runtime's event broker (transports subscribe to it; a
// reconnecting client resumes with SubscribeSince).
func (rt *Runtime) Events() *Broker { return rt.events }

// Subscribe returns a subscription to one thread's envelopes ("" = all).
func (rt *Runtime) Subscribe(threadID string) *Subscription {
	return rt.SubscribeWith(threadID, SubscribeOptions{})
}

// SubscribeWith is Subscribe with options.
func (rt *Runtime) SubscribeWith(threadID string, o SubscribeOptions) *Subscription {
	s := rt.events.Subscribe(threadID, o)
	rt.mu.Lock()
	closed := rt.closed
	rt.mu.Unlock()
	if closed {
		s.Close()
	}
	return s
}

// Publish sends a facade event (name, data) to the thread's subscribers
// through the same broker, ordered with the runtime's own envelopes.
func (rt *Runtime) Publish(name, threadID string, data any) {
	rt.events.Publish(Envelope{Name: name, ThreadID: threadID, Data: data})
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

// waitSettled waits while the thread's run is finishing (its terminal
// event is out but its last writes may not be), so a caller reacting to a
// terminal event sees the run's final state.
func (rt *Runtime) waitSettled(ctx context.Context, threadID string) error {
	for {
		rt.mu.Lock()
		t := rt.threads[threadID]
		if t == nil || !t.running || !t.finishing {
			rt.mu.Unlock()
			return nil
		}
		ch := t.settled
		rt.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for the thread's last run to settle: %w", ctx.Err())
		}
	}
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
	if err := rt.waitSettled(ctx, in.ThreadID); err != nil {
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
// expect their run to start now, not later). A run that already sent its
// terminal event is waited for.
func (rt *Runtime) StartExclusive(ctx context.Context, in Input) error {
	if _, err := rt.opts.Model(); err != nil {
		return err
	}
	if err := rt.waitSettled(ctx, in.ThreadID); err != nil {
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

// launch starts the run goroutine. rt.mu is held.
func (rt *Runtime) launch(t *thread, in Input) {
	ctx, stop := context.WithCancel(rt.baseCx)
	t.running, t.finishing, t.settled = true, false, make(chan struct{})
	t.runID, t.stop, t.stopped = in.RunID, stop, false
	rt.turns.Add(1)
	go rt.drive(t, ctx, stop, in)
}

// drive runs in, then the queued input, until the queue is empty. The
// thread is marked running and rt.turns counts this goroutine. Each run's
// terminal event goes out after the run's writes (after() holds the one
// exception, see the package doc), then the run settles.
func (rt *Runtime) drive(t *thread, ctx context.Context, stop context.CancelFunc, in Input) {
	defer rt.turns.Done()
	for {
		term, after := rt.runTurn(ctx, in)
		stop()
		rt.mu.Lock()
		t.finishing = true
		// Stop that came after the run decided to pause is not lost: the
		// items it left get "Interrupted" in a stop run right after.
		stopLate := t.stopped && leftWaiting(term)
		rt.mu.Unlock()
		if term != nil {
			rt.emit(in.ThreadID, term)
		}
		if after != nil {
			after()
		}
		if term != nil {
			rt.afterRun(in.ThreadID, term)
		}
		rt.mu.Lock()
		close(t.settled)
		switch {
		case stopLate && !rt.closed:
			in = Input{ThreadID: t.id, RunID: NewID("run"), kind: kindStopPending}
		case len(t.queue) == 0 || rt.closed:
			left := t.queue
			t.queue = nil
			t.running, t.finishing, t.runID, t.stop, t.stopped = false, false, "", nil, false
			rt.mu.Unlock()
			rt.keepUnsent(t.id, left)
			return
		default:
			in = t.queue[0]
			t.queue = t.queue[1:]
			if in.RunID == "" {
				in.RunID = NewID("run")
			}
			rt.publishQueue(t)
		}
		ctx, stop = context.WithCancel(rt.baseCx)
		t.finishing, t.settled = false, make(chan struct{})
		t.runID, t.stop, t.stopped = in.RunID, stop, false
		rt.mu.Unlock()
	}
}

// leftWaiting reports whether a terminal event leaves items waiting.
func leftWaiting(term agui.Event) bool {
	rf, ok := term.(*agui.RunFinished)
	if !ok || rf.Outcome == nil {
		return false
	}
	return rf.Outcome.Type == agui.OutcomeInterrupt || len(rf.Outcome.PendingToolCallIDs) > 0
}

// Interrupt stops the thread's current run (see the package doc for the
// exact effects). It does not wait for the run to end: the terminal event
// follows at once while streaming, or after a MustComplete tool finishes.
// When no run owns the thread but items wait, the thread is taken for a
// short run that answers each waiting call "Interrupted" (no model call)
// before any answer can start a continuation. Idle or repeated calls are
// no-ops.
func (rt *Runtime) Interrupt(threadID string) {
	rt.mu.Lock()
	if t := rt.threads[threadID]; t != nil && t.running && !t.finishing {
		// The common case, kept fast: a run streams or runs tools.
		if !t.stopped {
			t.stopped = true
			t.stop()
		}
		rt.mu.Unlock()
		return
	}
	rt.mu.Unlock()
	ctx, cancel := context.WithTimeout(rt.baseCx, 5*time.Second)
	defer cancel()
	// A run that already sent its terminal event cannot be stopped any
	// more; what it left waiting can.
	_ = rt.waitSettled(ctx, threadID)
	// Answers are serialised with this: either an answer started its
	// continuation first (and Stop stops it), or Stop takes the thread
	// first (and the answer is too late). Stop never vanishes.
	rt.answerMu.Lock()
	defer rt.answerMu.Unlock()
	waiting := rt.hasWaiting(ctx, threadID)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return
	}
	t := rt.handle(threadID)
	switch {
	case t.running:
		if !t.stopped {
			t.stopped = true
			t.stop()
		}
	case waiting:
		rt.launch(t, Input{ThreadID: threadID, RunID: NewID("run"), kind: kindStopPending})
	}
}

// StopAndWait stops the thread's run, drops the input queued behind it,
// and waits until the thread is idle (a MustComplete tool finishing, the
// run saving its state).
func (rt *Runtime) StopAndWait(ctx context.Context, threadID string) error {
	rt.mu.Lock()
	if t := rt.threads[threadID]; t != nil && len(t.queue) > 0 {
		t.queue = nil
		rt.publishQueue(t)
	}
	rt.mu.Unlock()
	rt.Interrupt(threadID)
	return rt.waitIdle(ctx, func(t *thread) bool { return t.id == threadID })
}

// StopAllAndWait is StopAndWait for every thread.
func (rt *Runtime) StopAllAndWait(ctx context.Context) error {
	rt.mu.Lock()
	for _, t := range rt.threads {
		if len(t.queue) > 0 {
			t.queue = nil
			rt.publishQueue(t)
		}
		if t.running && !t.stopped {
			t.stopped = true
			t.stop()
		}
	}
	rt.mu.Unlock()
	return rt.waitIdle(ctx, func(*thread) bool { return true })
}

// waitIdle waits until no thread that match selects runs.
func (rt *Runtime) waitIdle(ctx context.Context, match func(*thread) bool) error {
	for {
		var ch chan struct{}
		rt.mu.Lock()
		for _, t := range rt.threads {
			if t.running && match(t) {
				ch = t.settled
				break
			}
		}
		rt.mu.Unlock()
		if ch == nil {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for the run to stop: %w", ctx.Err())
		}
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
	rt.events.Publish(Envelope{Name: EnvelopeQueue, ThreadID: t.id, Queued: queueTexts(t)})
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
	rt.events.closeAll()
	return err
}

func (rt *Runtime) emit(threadID string, ev agui.Event) {
	rt.events.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: threadID, Event: ev})
}
