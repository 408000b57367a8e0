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
//   - A running call may ask the person (tools.Ask: an MCP server's
//     elicitation or sampling request). The question is stored as a
//     generic interrupt bound to the call and the run pauses on it while
//     the call stays open (parked); the continuation delivers the answer
//     to the same call. Stop, new input and Shutdown cancel the parked
//     call ("Interrupted mid-run; side effects unknown"); after a restart
//     the store's recovery ends such questions, shown in the call's result.
//     A call's progress reports (tools.ReportProgress) are emitted as
//     juncture.tool_state, at most every 100 ms.
//   - A thread is a tree of messages (branches.go): the model reads only
//     the active path; edits and regenerates are siblings; the path never
//     changes while a turn runs or while anything waits on it; the thread's
//     instructions are the last system message on its path, sent first.
//     The model is resolved per thread before every model call.
//   - Unbound interrupts (written by someone else) are never cancelled by
//     new input or Stop: they stay visible until their owner settles them.
//   - Events reach subscribers through one broker with two delivery
//     classes (see package broker): deltas may be coalesced for a subscriber
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
	"log/slog"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/broker"
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

// ToolSource returns the tools a thread's next turn is offered (settings
// such as the workspace folder, and the thread's own tool choice, apply
// from the next turn on). threadID is "" when the question is about every
// tool the app has. It may return nil.
type ToolSource func(ctx context.Context, threadID string) *tools.Registry

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
	// ModelSeesImages, when set and true, sends the images of tool results
	// (MCP image content) to the model as image parts of a user message
	// after the results; otherwise the model reads the results' text,
	// which describes each image.
	ModelSeesImages func() bool
	// DisableAskUser hides the built-in ask_user tool.
	DisableAskUser bool
	Now            func() time.Time
	// ResumeTask follows a task call kept from a previous run of the app
	// (ResumeTasks); nil: such calls end "outcome unknown".
	ResumeTask TaskResumer
}

// Runtime runs turns for many threads.
type Runtime struct {
	opts   Options
	st     Store
	log    *slog.Logger
	events *broker.Broker
	baseCx context.Context
	cancel context.CancelFunc
	// bgCx bounds background work (titles); Shutdown ends it first, so a
	// slow title request never holds the app open.
	bgCx     context.Context
	bgCancel context.CancelFunc

	mws     []Middleware
	schemas *interrupt.SchemaCache

	// answerMu serialises answers (and the runs they start) per runtime:
	// answers are rare, and one lock keeps "first resolver wins" simple.
	answerMu sync.Mutex

	mu      sync.Mutex
	threads map[string]*thread
	// parked holds calls waiting mid-run on the person (callrun.go), by
	// thread and call id.
	parked map[string]*liveCall
	// live holds the answer each thread is streaming (live.go).
	liveMu sync.Mutex
	live   map[string]*liveAnswer
	// images caches attached images as the model receives them.
	images imageCache
	closed bool
	turns  sync.WaitGroup // turn goroutines and title writers
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
	// Attachments are files sent with Text (attachments.go); Start checks
	// them and refuses the input, storing nothing, if one cannot be sent.
	Attachments []attach.Input
	files       []attach.File // Attachments, checked

	// Set by the runtime for runs that are not plain turns.
	kind inputKind
	// checkedRun: with continues, the thread's settled channel when the
	// last answer was found continuable (nil: no run yet). Every run
	// start makes a new one, so StartExclusive refuses (errStale) when a
	// run has started since, whoever started it.
	checkedRun chan struct{}
	// continues: the turn continues the interrupted last answer in place
	// (ContinueAnswer): no message of the person, the answer grows.
	continues bool
	// branchAt, when set, is where the active path ends before the turn
	// adds anything (an edit or a regenerate, see branches.go).
	branchAt  *string
	branchWhy string
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
	bg, bgCancel := context.WithCancel(ctx)
	return &Runtime{opts: opts, st: opts.Store, log: opts.Logger, events: broker.NewBroker(), baseCx: ctx, cancel: cancel,
		bgCx: bg, bgCancel: bgCancel, threads: make(map[string]*thread), mws: mws, schemas: interrupt.NewSchemaCache(0)}
}

// Events is the runtime's event broker (transports subscribe to it; a
// reconnecting client resumes with SubscribeSince).
func (rt *Runtime) Events() *broker.Broker { return rt.events }

// Subscribe returns a subscription to one thread's envelopes ("" = all).
func (rt *Runtime) Subscribe(threadID string) *broker.Subscription {
	return rt.SubscribeWith(threadID, broker.SubscribeOptions{})
}

// SubscribeWith is Subscribe with options.
func (rt *Runtime) SubscribeWith(threadID string, o broker.SubscribeOptions) *broker.Subscription {
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
	rt.events.Publish(broker.Envelope{Name: name, ThreadID: threadID, Data: data})
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

func (rt *Runtime) emit(threadID string, ev agui.Event) {
	rt.events.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: threadID, Event: ev})
}

// emitDelta publishes a delta with where its text starts (live.go).
func (rt *Runtime) emitDelta(threadID string, ev agui.Event, offset int) {
	rt.events.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: threadID, Event: ev, Offset: offset})
}
