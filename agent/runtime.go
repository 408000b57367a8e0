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
	images attach.ImageCache
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
	stopVia   string             // how that Stop came (history.Transport*; "" unknown), for the ledger
	queue     []Input
}

// begin makes t owned by the run runID (rt.mu held): a new settled
// channel, and the run's context, cancelled by Stop through t.stop. A run
// that follows in the same goroutine (drive) begins the same way.
func (t *thread) begin(base context.Context, runID string) (context.Context, context.CancelFunc) {
	ctx, stop := context.WithCancel(base)
	t.running, t.finishing, t.settled = true, false, make(chan struct{})
	t.runID, t.stop, t.stopped, t.stopVia = runID, stop, false, ""
	return ctx, stop
}

// idle marks t owned by no run (rt.mu held; its settled channel is closed).
func (t *thread) idle() {
	t.running, t.finishing, t.runID, t.stop, t.stopped, t.stopVia = false, false, "", nil, false, ""
}

// busy returns ErrClosed or ErrBusy unless a new run may own the thread
// now (rt.mu held).
func (rt *Runtime) busy(threadID string) error {
	switch {
	case rt.closed:
		return ErrClosed
	case rt.threads[threadID] != nil && rt.threads[threadID].running:
		return ErrBusy
	}
	return nil
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
	// stopVia: kindStopPending's Stop came this way (history.Transport*).
	stopVia string
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
	viewCall  *history.ToolCall   // kindViewCall (viewcall.go)
}

// inputKind says what a run does besides a plain turn.
type inputKind int

const (
	kindTurn        inputKind = iota
	kindResume                // a continuation: apply the answers, then the model loop
	kindRefused               // a refused continuation: RUN_STARTED + RUN_ERROR only
	kindStopPending           // Stop while items wait: answer them "Interrupted"
	kindViewCall              // an MCP App view's call: run it, no model call (viewcall.go)
)

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
