package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

// A call that asks mid-run. A tool (an MCP server's elicitation or
// sampling request) may ask the person something while it runs. The run
// cannot wait inside the call for hours, and the person's answer must
// travel as any other answer (an AG-UI interrupt with a TanStack binding),
// so the call is parked:
//
//   - the call runs on a goroutine of its own (liveCall), with a context
//     that belongs to the call, not to the run;
//   - when it asks, the turn stores the question as a generic interrupt
//     bound to the call, parks the live call in the runtime, and the run
//     ends with the interrupt outcome; the tool's request stays open;
//   - the continuation that carries the answer takes the call back,
//     delivers the reply and waits again (for the result or the next
//     question);
//   - Stop, new input and Shutdown abandon a parked call: the pending
//     request is answered "cancel" and an Abortable call's context is
//     cancelled (an MCP call then sends notifications/cancelled). The
//     call's goroutine records its execution when it ends, whoever waits.
//   - Shutdown leaves a parked call's execution "started", as a crash
//     would: after a restart nothing is parked, and the store's recovery
//     settles such items, shown in the call's result, never as a form.
//
// Progress reports are throttled (progressEvery) and only emitted while a
// run owns the call.

// DefToolPrompt is the definition id of a question a running tool asks.
const DefToolPrompt = "juncture.tool_prompt"

// MetaPrompt is the descriptor metadata of a mid-call question: what the
// card shows (kind, source, message, url, details).
const MetaPrompt = "juncture:prompt"

// progressEvery bounds how often a call's progress reaches the window.
const progressEvery = 100 * time.Millisecond

// PromptMeta is the value of MetaPrompt.
type PromptMeta struct {
	Kind    string         `json:"kind"` // tools.PromptQuestion | PromptURL | PromptSampling
	Source  string         `json:"source"`
	Message string         `json:"message,omitempty"`
	URL     string         `json:"url,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

// Response schemas of the prompts whose form Juncture defines.
var (
	urlPromptSchema      = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	samplingPromptSchema = json.RawMessage(`{"type":"object","properties":{"approved":{"type":"boolean"},"reason":{"type":"string"}},"required":["approved"],"additionalProperties":false}`)
)

// ask is one question of a running call, waiting for its reply.
type ask struct {
	prompt tools.Prompt
	reply  chan tools.Reply // buffered: a reply never blocks its sender
}

// liveCall is a tool call running on its own goroutine.
type liveCall struct {
	rt        *Runtime
	threadID  string
	call      history.ToolCall
	ctx       context.Context
	cancel    context.CancelFunc
	abortable bool
	exec      history.ToolExecution // recorded as started; finished by the goroutine or, for a result that asks for input, by the turn
	asks      chan *ask
	done      chan tools.Result // buffered; closed after the result
	// pending is the question the call waits on while parked.
	pending *ask
	// taken is closed when the call stops being parked (taken back or
	// abandoned); a new one is made for every park.
	taken     chan struct{}
	takenOnce *sync.Once
	// closing: the app shuts down while the call is parked. Its execution
	// is then left "started", as a crash would leave it, so the next
	// start's recovery ends its question and gives it its result.
	closing atomic.Bool
	// task: the call runs as a task whose handle is kept (tasks.go).
	task atomic.Bool
	// rounds: the round trips the call was answered before this run of
	// it (a retry, roundtrip.go); a result that asks again adds one.
	rounds int

	mu       sync.Mutex
	owned    bool // a run waits on the call: progress may be emitted
	lastEmit time.Time
	latest   *tools.Progress
	flush    *time.Timer
}

// startCall runs a prepared call on its own goroutine (retry, when set:
// the same call again with the person's answers, roundtrip.go).
func (tr *turn) startCall(call history.ToolCall, prepared tools.Call, exec history.ToolExecution, retry *tools.Retry) *liveCall {
	lc := tr.startRun(call, exec, prepared.Tool.OnStop == tools.Abortable, func(ctx context.Context) tools.Result {
		if retry != nil {
			ctx = tools.WithRetry(ctx, *retry)
		}
		return tr.tools.Execute(ctx, prepared)
	})
	if retry != nil {
		lc.rounds = retry.Round // the turn's alone: the goroutine never reads it
	}
	return lc
}

// startRun runs a call's work on its own goroutine: a prepared call
// (startCall) or a kept task followed after a restart (tasks.go). exec
// was recorded as started; the goroutine records how it finished, except
// a result that asks for input, which the turn records (roundtrip.go),
// and a call left running as the app closes.
func (tr *turn) startRun(call history.ToolCall, exec history.ToolExecution, abortable bool, run func(context.Context) tools.Result) *liveCall {
	rt := tr.rt
	ctx, cancel := context.WithCancel(rt.baseCx)
	lc := &liveCall{
		rt: rt, threadID: tr.run.ThreadID, call: call, ctx: ctx, cancel: cancel, exec: exec, abortable: abortable,
		asks: make(chan *ask), done: make(chan tools.Result, 1), owned: true,
	}
	rt.turns.Add(1)
	go func() {
		defer rt.turns.Done()
		defer cancel()
		res := run(tools.WithCallEnv(ctx, lc))
		if lc.closing.Load() || res.Input != nil {
			lc.done <- res
			return
		}
		exec.State, exec.Result, exec.IsError, exec.FinishedAt = history.ToolFinished, res.Content, res.IsError, rt.now()
		if err := rt.st.FinishToolExecution(context.WithoutCancel(ctx), exec); err != nil {
			rt.log.Error("recording a tool result", "tool", call.Name, "err", err)
		}
		lc.done <- res
	}()
	return lc
}

// Progress implements tools.CallEnv: the latest report is shown at most
// every progressEvery, and never while the call is parked.
func (lc *liveCall) Progress(p tools.Progress) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.latest = &p
	if !lc.owned || lc.flush != nil {
		return
	}
	if wait := progressEvery - time.Since(lc.lastEmit); wait > 0 {
		lc.flush = time.AfterFunc(wait, lc.flushProgress)
		return
	}
	lc.emitProgressLocked()
}

func (lc *liveCall) flushProgress() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.flush = nil
	if lc.owned && lc.latest != nil {
		lc.emitProgressLocked()
	}
}

func (lc *liveCall) emitProgressLocked() {
	p := lc.latest
	lc.latest, lc.lastEmit = nil, time.Now()
	lc.rt.emit(lc.threadID, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: lc.call.ID, State: contract.ToolRunning, ToolName: lc.call.Name, Progress: p}))
}

// setOwned says whether a run waits on the call (progress is emitted).
func (lc *liveCall) setOwned(owned bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.owned = owned
	if !owned && lc.flush != nil {
		lc.flush.Stop()
		lc.flush = nil
	}
}

// Ask implements tools.CallEnv: it hands the question to the run that
// waits on the call and returns the person's reply. A call that ends
// (Stop, Shutdown) or whose caller gives up gets an error.
func (lc *liveCall) Ask(ctx context.Context, p tools.Prompt) (tools.Reply, error) {
	a := &ask{prompt: p, reply: make(chan tools.Reply, 1)}
	select {
	case lc.asks <- a:
	case <-ctx.Done():
		return tools.Reply{}, ctx.Err()
	case <-lc.ctx.Done():
		return tools.Reply{}, lc.ctx.Err()
	}
	select {
	case r := <-a.reply:
		return r, nil
	case <-ctx.Done():
		return tools.Reply{}, ctx.Err()
	case <-lc.ctx.Done():
		return tools.Reply{}, lc.ctx.Err()
	}
}

// abandon ends a call nobody will take back: its question is answered
// "cancel" and an Abortable call is cancelled.
func (lc *liveCall) abandon() {
	// Cancel first: whichever the call sees first, the reply or its
	// context, it finds itself stopped.
	if lc.abortable {
		lc.cancel()
	}
	if lc.pending != nil {
		lc.pending.reply <- tools.Reply{Action: tools.ReplyCancel}
		lc.pending = nil
	}
	// A MustComplete call runs to its end; its later questions are
	// refused at once (nobody owns it any more).
	lc.rt.turns.Add(1)
	go func() {
		defer lc.rt.turns.Done()
		for {
			select {
			case a := <-lc.asks:
				a.reply <- tools.Reply{Action: tools.ReplyCancel}
			case <-lc.done:
				return
			}
		}
	}()
}

// callOutcome is how waiting on a live call ended.
type callOutcome struct {
	res     tools.Result
	stopped bool // Stop came while it ran
	asked   *ask // the call asks the person: park it
}

// await waits for the call's result or its next question. Stop cancels
// an Abortable call (its result follows promptly) and answers its
// questions "cancel"; a MustComplete call is waited for.
func (tr *turn) await(lc *liveCall) callOutcome {
	lc.setOwned(true)
	defer lc.setOwned(false)
	stop := tr.ctx.Done()
	stopped := false
	for {
		select {
		case res := <-lc.done:
			return callOutcome{res: res, stopped: stopped}
		case a := <-lc.asks:
			if stopped {
				a.reply <- tools.Reply{Action: tools.ReplyCancel}
				continue
			}
			return callOutcome{asked: a}
		case <-stop:
			stop, stopped = nil, true
			if lc.abortable {
				lc.cancel()
			}
		}
	}
}

// parkedKey names a parked call.
func parkedKey(threadID, callID string) string { return threadID + "\x00" + callID }

// park keeps a call that waits on the person until a continuation takes
// it back or it is abandoned.
func (rt *Runtime) park(lc *liveCall, a *ask) {
	lc.pending = a
	lc.taken, lc.takenOnce = make(chan struct{}), &sync.Once{}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.parked == nil {
		rt.parked = map[string]*liveCall{}
	}
	rt.parked[parkedKey(lc.threadID, lc.call.ID)] = lc
}

// unpark takes a parked call back (nil when none is parked under the id).
func (rt *Runtime) unpark(threadID, callID string) *liveCall {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	k := parkedKey(threadID, callID)
	lc := rt.parked[k]
	delete(rt.parked, k)
	if lc != nil {
		lc.markTaken()
	}
	return lc
}

// waitRunEnd waits until the thread's run runID has settled; it reports
// false at once when another run owns the thread.
func (rt *Runtime) waitRunEnd(threadID, runID string) bool {
	rt.mu.Lock()
	t := rt.threads[threadID]
	if t == nil || !t.running {
		rt.mu.Unlock()
		return true
	}
	if t.runID != runID {
		rt.mu.Unlock()
		return false
	}
	ch := t.settled
	rt.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-rt.baseCx.Done():
		return false
	}
}

func (lc *liveCall) markTaken() { lc.takenOnce.Do(func() { close(lc.taken) }) }

// watchParked settles a parked call's question on its own when the call
// ends while it waits: the server gave up on its request (a timeout, its
// own cancel) or its session closed. The question is then cancelled as if
// dismissed, and the continuation gives the call its result, so no card
// is left that nothing listens to.
func (rt *Runtime) watchParked(lc *liveCall, interruptID, runID string) {
	taken := lc.taken
	rt.turns.Add(1)
	go func() {
		defer rt.turns.Done()
		select {
		case res := <-lc.done:
			lc.done <- res // whoever takes the call back reads it
			select {
			case <-taken:
				return
			default:
			}
			if lc.closing.Load() {
				return
			}
			withdraw := Answers{ParentRunID: runID, Complete: true,
				Interrupts: []InterruptAnswer{{ResumeEntry: agui.ResumeEntry{InterruptID: interruptID, Status: "cancelled"}}}}
			_, err := rt.Answer(rt.baseCx, lc.threadID, withdraw)
			// The run that paused may still be ending: wait for it. Any
			// other run of the thread settles the question itself.
			for errors.Is(err, ErrBusy) && rt.waitRunEnd(lc.threadID, runID) {
				_, err = rt.Answer(rt.baseCx, lc.threadID, withdraw)
			}
			if err != nil && !errors.Is(err, ErrTooLate) && !errors.Is(err, ErrNothingPending) && !errors.Is(err, ErrClosed) {
				rt.log.Warn("settling a question the tool withdrew", "thread", lc.threadID, "err", err)
			}
		case <-taken:
		}
	}()
}

// abandonParked abandons every call parked in the thread ("" = every
// thread, at Shutdown) and reports the ids of the calls it abandoned.
func (rt *Runtime) abandonParked(threadID string) map[string]bool {
	rt.mu.Lock()
	var lcs []*liveCall
	for k, lc := range rt.parked {
		if threadID == "" || lc.threadID == threadID {
			lcs = append(lcs, lc)
			delete(rt.parked, k)
		}
	}
	rt.mu.Unlock()
	ids := map[string]bool{}
	for _, lc := range lcs {
		ids[lc.call.ID] = true
		lc.closing.Store(threadID == "")
		lc.markTaken()
		lc.abandon()
	}
	return ids
}

// runLive starts a call (or takes back a parked one with its reply) and
// waits on it: it returns the call's result, or parks it and returns the
// question the run pauses on.
func (tr *turn) runLive(lc *liveCall, call history.ToolCall, note string) (parked *ask) {
	tr.live = lc
	out := tr.await(lc)
	if out.asked != nil {
		return out.asked
	}
	if lc.closing.Load() && lc.task.Load() {
		return nil // the app quits: the task goes on, resumed at the next start (tasks.go)
	}
	res, state := out.res, stateOf(out.res)
	if res.Input != nil {
		if !out.stopped {
			tr.input = &needsInput{lc: lc, input: res.Input}
			return nil
		}
		// Stop came as the tool asked: nothing is open, the call ends
		// here without its input.
		res, state = tools.Result{Content: ResultInputNotGiven, IsError: true}, contract.ToolInterrupted
		lc.finish(res)
	}
	if out.stopped && lc.abortable && state != contract.ToolInterrupted {
		state = contract.ToolInterruptedMidRun
		if !strings.HasPrefix(res.Content, history.ResultInterruptedMidRun) {
			res = tools.Result{Content: history.ResultInterruptedMidRun + "\n" + res.Content, IsError: true, Parts: res.Parts}
		}
	}
	res.Content = note + res.Content
	tr.toolResult(call, res, state)
	return nil
}

// pauseMidCall stores the question a running call asks as a generic
// interrupt bound to the call and parks the call; the run ends with the
// interrupt outcome. A question that cannot be stored is answered
// "cancel" and the call goes on (ok false).
func (tr *turn) pauseMidCall(lc *liveCall, a *ask) (ending, bool) {
	rt, tid := tr.rt, tr.run.ThreadID
	recs, ais, err := tr.questions(lc.call, []tools.Prompt{a.prompt})
	stopped := err == nil && tr.ctx.Err() != nil
	if err == nil && !stopped {
		rt.park(lc, a)
		if err = rt.st.PutInterrupts(tr.save, recs); err != nil {
			rt.unpark(tid, lc.call.ID)
			lc.pending = nil
		} else {
			rt.watchParked(lc, recs[0].ID, tr.run.ID)
		}
	}
	// Once stored, the pause stands even if Stop came meanwhile: the run
	// ends with it and Stop settles it (turn.finish), so no card is left
	// for a call that goes on (issue 20, bug 2).
	if err != nil || stopped {
		if err != nil {
			rt.log.Error("asking the person for a running tool; declined on their behalf", "tool", lc.call.Name, "err", err)
		}
		a.reply <- tools.Reply{Action: tools.ReplyCancel}
		return endSuccess, false
	}
	return tr.endOnQuestions(lc.call, ais)
}

// questions describes a running call's prompts as generic interrupts
// bound to the call, in order: the records to store and what the window
// is sent.
func (tr *turn) questions(call history.ToolCall, prompts []tools.Prompt) ([]history.Interrupt, []agui.Interrupt, error) {
	descs := make([]interrupt.Descriptor, 0, len(prompts))
	for _, p := range prompts {
		d, err := tr.promptDescriptor(call, p)
		if err != nil {
			return nil, nil, err
		}
		descs = append(descs, d)
	}
	batch, err := interrupt.BuildBatch(tr.run.ID, tr.run.Generation, nil, nil, descs)
	if err != nil {
		return nil, nil, err
	}
	recs := make([]history.Interrupt, 0, len(batch))
	ais := make([]agui.Interrupt, 0, len(batch))
	for _, d := range batch {
		raw, err := json.Marshal(d)
		if err != nil {
			return nil, nil, err
		}
		ai, err := agui.FromDescriptor(raw)
		if err != nil {
			return nil, nil, err
		}
		ais = append(ais, ai)
		recs = append(recs, history.Interrupt{ID: d.ID, ThreadID: tr.run.ThreadID, RunID: tr.run.ID, Generation: tr.run.Generation,
			Kind: history.KindGeneric, ToolCallID: call.ID, Descriptor: raw, Status: history.InterruptPending, CreatedAt: tr.rt.now()})
	}
	return recs, ais, nil
}

// endOnQuestions ends the run on the questions just stored for a call.
func (tr *turn) endOnQuestions(call history.ToolCall, ais []agui.Interrupt) (ending, bool) {
	rt, tid := tr.rt, tr.run.ThreadID
	tr.leftWaiting = true
	rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: call.ID, State: contract.ToolAwaitingAnswer, ToolName: call.Name}))
	if msgs, err := rt.st.Messages(tr.save, tid); err == nil {
		rt.emit(tid, agui.NewMessagesSnapshot(agui.FromHistory(msgs)))
	}
	tr.interrupts = ais
	return endInterrupt, true
}

// promptDescriptor describes a running call's question as a generic
// interrupt bound to the call.
func (tr *turn) promptDescriptor(call history.ToolCall, p tools.Prompt) (interrupt.Descriptor, error) {
	var schema json.RawMessage
	switch p.Kind {
	case tools.PromptQuestion:
		if _, err := interrupt.CheckModelSchema(p.Schema, interrupt.DefaultModelSchemaLimits, tr.rt.schemas); err != nil {
			return interrupt.Descriptor{}, fmt.Errorf("the requested form is not usable: %w", err)
		}
		c, err := interrupt.CanonicalJSON(p.Schema)
		if err != nil {
			return interrupt.Descriptor{}, err
		}
		schema = json.RawMessage(c)
	case tools.PromptURL:
		schema = urlPromptSchema
	case tools.PromptSampling:
		schema = samplingPromptSchema
	default:
		return interrupt.Descriptor{}, fmt.Errorf("unknown prompt kind %q", p.Kind)
	}
	meta, err := json.Marshal(PromptMeta{Kind: p.Kind, Source: p.Source, Message: p.Message, URL: p.URL, Details: p.Details})
	if err != nil {
		return interrupt.Descriptor{}, err
	}
	msg := p.Message
	if strings.TrimSpace(msg) == "" {
		msg = p.Source + " asks"
	}
	def := interrupt.Definition{ID: DefToolPrompt, ResponseSchema: schema}
	d, err := tr.genericDescriptor(def, call.ID, &Question{Reason: "tool_prompt", Message: msg})
	if err != nil {
		return interrupt.Descriptor{}, err
	}
	d.ToolCallID = call.ID
	if d.Metadata == nil {
		d.Metadata = map[string]json.RawMessage{}
	}
	d.Metadata[MetaPrompt] = meta
	return d, nil
}

// promptReply is the reply an answer to a mid-call question gives the
// call: a question's payload is accepted as it is (it was validated
// against the form's schema); {approved} decides a sampling request; a
// cancelled entry is "cancel", or "decline" when its metadata says so.
func promptReply(kind string, payload json.RawMessage, cancelled bool, meta map[string]any) tools.Reply {
	if cancelled {
		if meta != nil && meta["action"] == tools.ReplyDecline {
			return tools.Reply{Action: tools.ReplyDecline}
		}
		return tools.Reply{Action: tools.ReplyCancel}
	}
	if kind == tools.PromptSampling {
		var s struct {
			Approved bool   `json:"approved"`
			Reason   string `json:"reason"`
		}
		if json.Unmarshal(payload, &s) != nil || !s.Approved {
			return tools.Reply{Action: tools.ReplyDecline, Reason: s.Reason}
		}
	}
	return tools.Reply{Action: tools.ReplyAccept, Content: payload}
}

// promptMetaOf reads a stored mid-call question's metadata.
func promptMetaOf(d interrupt.Descriptor) PromptMeta {
	var m PromptMeta
	if raw, ok := d.Metadata[MetaPrompt]; ok {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}
