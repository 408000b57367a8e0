package agent

// A thread's life: one run at a time, input queued behind it, Stop, and
// shutdown. Runtime.mu guards every thread's state; the run goroutine
// (drive) is the only one that moves a thread from one run to the next.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/history"
)

// WaitSettled waits while the thread's run is finishing: a snapshot
// taken after it never says "running" for a run whose terminal event is
// already out (a window reading it would wait for an end that came).
func (rt *Runtime) WaitSettled(ctx context.Context, threadID string) error {
	return rt.waitSettled(ctx, threadID)
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
	return rt.SendInputWith(ctx, threadID, text, nil)
}

// SendInputWith is SendInput with attached files. A file that cannot be
// sent (its type, its size, an image for a model that does not take
// images) refuses the whole input with an *attach.Error before
// anything is stored.
func (rt *Runtime) SendInputWith(ctx context.Context, threadID, text string, files []attach.Input) (queued bool, err error) {
	if text == "" && len(files) == 0 {
		return false, ErrEmptyInput
	}
	_, queued, err = rt.Start(ctx, Input{ThreadID: threadID, Text: text, Attachments: files})
	return queued, err
}

// ContinueInstruction is what the model reads (never stored or shown)
// when it is asked to go on with an answer the person stopped.
const ContinueInstruction = "Continue your previous answer exactly where it stopped. Do not repeat anything you already wrote and do not comment on the interruption."

// ErrNothingToContinue is returned by ContinueAnswer when the thread's last
// message is not an answer the person stopped.
var ErrNothingToContinue = errors.New("agent: the last answer was not interrupted; there is nothing to continue")

// ContinueAnswer continues the thread's interrupted last answer in place:
// no message of the person is added; the model is asked to go on from
// where it stopped, its text streams into the same message (the
// "interrupted" mark goes away), and Stop marks it again. It refuses
// while a turn runs (ErrBusy) and when the last message is not an
// interrupted answer without tool calls (ErrNothingToContinue).
func (rt *Runtime) ContinueAnswer(ctx context.Context, threadID string) (runID string, err error) {
	// Continue clicked as soon as Stop's terminal event shows: the run's
	// last write (the stopped answer) comes after that event; wait for it
	// rather than answer busy or find nothing to continue.
	// A run that starts and ends between the check and the start (a
	// message answered in that moment, a double click's first
	// continuation) makes the check stale: look again.
	for range 3 {
		if err := rt.waitSettled(ctx, threadID); err != nil {
			return "", err
		}
		seen, running := rt.lastRunOf(threadID)
		if running {
			return "", ErrBusy
		}
		if _, err := continuable(ctx, rt.st, threadID); err != nil {
			return "", err
		}
		// Only if the thread is still idle: a run that started since the
		// check above (a message sent at the same moment) makes this busy,
		// and nothing is queued behind it (it would then find nothing to
		// continue).
		runID = NewID("run")
		err := rt.StartExclusive(ctx, Input{ThreadID: threadID, RunID: runID, continues: true, checkedRun: seen})
		if !errors.Is(err, errStale) {
			if err != nil {
				return "", err
			}
			return runID, nil
		}
	}
	return "", ErrBusy
}

// errStale is StartExclusive's refusal of a continuation whose check was
// made before the thread's last run started.
var errStale = errors.New("agent: the thread ran since it was checked")

// lastRunOf returns the thread's last run, as its settled channel (each
// run start makes a new one; nil: none yet), and whether it runs now.
func (rt *Runtime) lastRunOf(threadID string) (chan struct{}, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.threads[threadID]
	if t == nil {
		return nil, false
	}
	return t.settled, t.running
}

// continuable returns the thread's last message if it is an interrupted
// answer without tool calls.
func continuable(ctx context.Context, st MessageStore, threadID string) (history.Message, error) {
	msgs, err := st.Messages(ctx, threadID)
	if err != nil {
		return history.Message{}, err
	}
	// New instructions saved after the stop do not change what is last.
	for len(msgs) > 0 && msgs[len(msgs)-1].Role == history.RoleSystem {
		msgs = msgs[:len(msgs)-1]
	}
	if len(msgs) == 0 {
		return history.Message{}, ErrNothingToContinue
	}
	last := msgs[len(msgs)-1]
	if last.Role != history.RoleAssistant || last.Status != history.StatusInterrupted || len(last.ToolCalls) > 0 {
		return history.Message{}, ErrNothingToContinue
	}
	return last, nil
}

// Start starts a turn for in, or queues it when the thread is busy. It
// returns the run id (empty when queued).
func (rt *Runtime) Start(ctx context.Context, in Input) (runID string, queued bool, err error) {
	if in.ThreadID == "" {
		return "", false, fmt.Errorf("starting a turn: thread id is empty")
	}
	if _, err := rt.opts.Model(ctx, in.ThreadID); err != nil {
		return "", false, err
	}
	if err := rt.checkAttachments(ctx, &in); err != nil {
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
	if _, err := rt.opts.Model(ctx, in.ThreadID); err != nil {
		return err
	}
	if err := rt.waitSettled(ctx, in.ThreadID); err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if err := rt.busy(in.ThreadID); err != nil {
		return err
	}
	t := rt.handle(in.ThreadID)
	if in.continues && t.settled != in.checkedRun {
		return errStale
	}
	if in.RunID == "" {
		in.RunID = NewID("run")
	}
	rt.launch(t, in)
	return nil
}

// launch starts the run goroutine. rt.mu is held.
func (rt *Runtime) launch(t *thread, in Input) {
	ctx, stop := t.begin(rt.baseCx, in.RunID)
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
		rt.mu.Lock()
		close(t.settled)
		switch {
		case stopLate && !rt.closed:
			in = Input{ThreadID: t.id, RunID: NewID("run"), kind: kindStopPending, stopVia: t.stopVia}
		case len(t.queue) == 0 || rt.closed:
			left := t.queue
			t.queue = nil
			t.idle()
			rt.mu.Unlock()
			rt.keepUnsent(t.id, left)
			rt.afterRun(t.id, term)
			return
		default:
			in = t.queue[0]
			t.queue = t.queue[1:]
			if in.RunID == "" {
				in.RunID = NewID("run")
			}
			rt.publishQueue(t)
		}
		ctx, stop = t.begin(rt.baseCx, in.RunID)
		rt.mu.Unlock()
		rt.afterRun(t.id, term)
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
func (rt *Runtime) Interrupt(threadID string) { rt.InterruptVia(threadID, "") }

// InterruptVia is Interrupt that says how the Stop came (history.Transport*:
// the window, a browser, an AG-UI client), for the ledger entries of what
// it leaves unanswered.
func (rt *Runtime) InterruptVia(threadID, via string) {
	rt.mu.Lock()
	if t := rt.threads[threadID]; t != nil && t.running && !t.finishing {
		// The common case, kept fast: a run streams or runs tools.
		if !t.stopped {
			t.stopped, t.stopVia = true, via
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
			t.stopped, t.stopVia = true, via
			t.stop()
		}
	case waiting:
		rt.launch(t, Input{ThreadID: threadID, RunID: NewID("run"), kind: kindStopPending, stopVia: via})
	}
}

// stopVia is how the Stop of the thread's current run came ("" when
// unknown or none); the run's goroutine reads it under rt.mu.
func (rt *Runtime) stopVia(threadID string) string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if t := rt.threads[threadID]; t != nil {
		return t.stopVia
	}
	return ""
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
	// A call parked on a question belongs to no run: it is cancelled too
	// (issue 20, bug 3), and records nothing of a history being deleted.
	rt.abandonParked("")
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
	rt.events.Publish(broker.Envelope{Name: broker.EnvelopeQueue, ThreadID: t.id, Queued: queueTexts(t)})
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
	rt.bgCancel()
	for _, t := range rt.threads {
		if t.running && !t.stopped {
			t.stopped = true
			t.stop()
		}
	}
	rt.mu.Unlock()
	// A call parked on a question ends with the app: its request is
	// answered "cancel", an Abortable call is cancelled.
	rt.abandonParked("")
	done := make(chan struct{})
	go func() { rt.turns.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("shutting down the agent runtime: %w", ctx.Err())
	}
	rt.cancel()
	rt.events.CloseAll()
	return err
}
