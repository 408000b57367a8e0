package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
	"github.com/juncture-app/juncture/agent/tools"
)

// ending is how a turn ends.
type ending int

const (
	endSuccess ending = iota
	endCancelled
	endError
	endInterrupt     // paused for approvals: RUN_FINISHED with an interrupt outcome
	endClientPending // client tools wait: RUN_FINISHED success with pendingToolCallIds
	endNothing       // a Stop that found nothing waiting: no run at all
)

// turn is the state of one running turn; owned by its goroutine.
type turn struct {
	rt           *Runtime
	ctx          context.Context // cancelled by Stop
	save         context.Context // never cancelled by Stop: saving always happens
	run          history.Run
	model        Model
	tools        *tools.Registry
	err          error  // endError: what to report
	errMessageID string // the answer err belongs to (juncture.message_error); "" when none
	// pendingSave is written after the terminal event (Stop while
	// streaming), before the run settles.
	pendingSave *history.Message
	// lastAnswer is the last assistant message saved in this turn; marked
	// says the interrupt marker was already added.
	lastAnswer *history.Message
	marked     bool
	// interrupts is the outcome of endInterrupt, as emitted.
	interrupts []agui.Interrupt
	// clientIDs are the handed-off client tool calls of endClientPending.
	clientIDs []string
	// leftWaiting: this run stored items that wait on the person or the
	// window (a pause, a hand-off).
	leftWaiting bool
	// modelCalls counts the turn's model calls, across continuations
	// (loop guard, MaxSteps).
	modelCalls int
	// skip names middleware answered in this run, not asked again at once.
	skip map[string]bool
	// system replaces the system prompt when set (middleware).
	system string
	// live is the call the turn waits on or last waited on (callrun.go).
	live *liveCall
	// input is a call whose result asks for input, to pause on
	// (roundtrip.go).
	input *needsInput
	// answer is the answer being streamed, shared with snapshots (live.go).
	answer *liveAnswer
	// allowedBy is the remembered rule that let each call run without
	// asking, by call id (the window says so).
	allowedBy map[string]history.PermissionRule
	// ruleCheck names the calls a rule may decide (grants.go): decided
	// by DecideByRule just before each runs, never from the gate's read.
	ruleCheck map[string]bool
	// turnKey is the turn's identity for "this turn" rules (turnID).
	turnKey string
	// ledgered names the decided calls whose outcome the ledger awaits.
	ledgered map[string]bool
	// prefill is the interrupted answer the turn's first model call
	// continues in place (ContinueAnswer).
	prefill *history.Message
}

// runTurn runs one run and returns its terminal event (not yet emitted:
// the caller sends it once the run's writes are done) and what must be
// saved after it (Stop while streaming), if anything. A nil terminal
// event means the run never started (a Stop with nothing waiting).
func (rt *Runtime) runTurn(ctx context.Context, in Input) (agui.Event, func()) {
	tr := &turn{rt: rt, ctx: ctx, save: context.WithoutCancel(ctx)}
	tr.run = history.Run{ID: in.RunID, ThreadID: in.ThreadID, ParentRunID: in.ParentRunID, Status: history.RunRunning, StartedAt: rt.now()}
	switch in.kind {
	case kindRefused:
		// A refused continuation changes nothing: no record, one RUN_ERROR.
		rt.emit(in.ThreadID, agui.NewRunStarted(in.ThreadID, in.RunID, in.ParentRunID))
		return in.refusal, nil
	case kindStopPending:
		return tr.finish(tr.stopPendingRun(in.stopVia))
	}
	rt.emit(in.ThreadID, agui.NewRunStarted(in.ThreadID, in.RunID, in.ParentRunID))
	end := tr.start(in)
	stage := BeforeModel
	if end == endSuccess && in.kind == kindResume {
		end, stage = tr.resume(in)
	}
	if end == endSuccess && in.kind == kindViewCall {
		end, stage = tr.viewCall(*in.viewCall), ""
	}
	if end == endSuccess && stage != "" {
		end = tr.loopFrom(stage)
	}
	return tr.finish(end)
}

// start saves the thread, the run and the new input.
func (tr *turn) start(in Input) ending {
	rt, tid := tr.rt, in.ThreadID
	// The model is resolved by each model call (callModel): the thread's
	// choice may change mid-turn. Start and settle checked one is set up.
	tr.tools = rt.toolsNow(tr.save, tid)
	now := rt.now()
	if err := rt.st.CreateThread(tr.save, history.Thread{ID: tid, CreatedAt: now, UpdatedAt: now}); err != nil {
		return tr.fail(fmt.Errorf("saving the thread: %w", err), "")
	}
	tr.loadRunState(in.kind == kindResume)
	if err := rt.st.PutRun(tr.save, tr.run); err != nil {
		return tr.fail(fmt.Errorf("saving the run: %w", err), "")
	}
	if in.continues {
		last, err := continuable(tr.save, rt.st, tid)
		if err != nil {
			return tr.fail(err, "")
		}
		tr.prefill = &last
	}
	if in.kind != kindResume {
		// New input while approvals, questions or client tools wait:
		// the person moved on.
		tr.cancelPending(ResultRepliedInChat, contract.ToolInterrupted, "")
	}
	if in.branchAt != nil {
		if end := tr.moveToBranch(*in.branchAt, in.branchWhy); end != endSuccess {
			return end
		}
	}
	if len(in.Messages) > 0 {
		if end := tr.appendMessages(in.Messages); end != endSuccess {
			return end
		}
	}
	if in.Text != "" || len(in.files) > 0 {
		id := in.MessageID
		if id == "" {
			id = NewID("msg")
		}
		m := history.Message{ID: id, ThreadID: tid, RunID: tr.run.ID, Role: history.RoleUser, Content: in.Text, Status: history.StatusComplete, CreatedAt: rt.now()}
		if err := rt.putUserMessage(tr.save, m, in.files); err != nil {
			return tr.fail(fmt.Errorf("saving your message: %w", err), "")
		}
		start := agui.NewTextStart(m.ID)
		start.Role = "user"
		rt.emit(tid, start)
		if m.Content != "" {
			rt.emit(tid, agui.NewTextContent(m.ID, m.Content))
		}
		rt.emit(tid, agui.NewTextEnd(m.ID))
	}
	return endSuccess
}

// appendMessages saves an AG-UI client's messages that are new (by id)
// and announces the thread as it now is.
func (tr *turn) appendMessages(msgs []history.Message) ending {
	rt, tid := tr.rt, tr.run.ThreadID
	stored, err := rt.st.Messages(tr.save, tid)
	if err != nil {
		return tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	// Known on any branch: a message of another branch is never stored
	// again at the end of this one.
	all, err := rt.st.AllMessages(tr.save, tid)
	if err != nil {
		return tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	known := make(map[string]bool, len(all))
	for _, m := range all {
		known[m.ID] = true
	}
	for _, m := range msgs {
		if known[m.ID] {
			continue
		}
		m.ThreadID, m.RunID = tid, tr.run.ID
		if m.CreatedAt == 0 {
			m.CreatedAt = rt.now()
		}
		if m.Status == "" {
			m.Status = history.StatusComplete
		}
		if err := rt.st.PutMessage(tr.save, m); err != nil {
			return tr.fail(fmt.Errorf("saving message %s: %w", m.ID, err), "")
		}
		stored = append(stored, m)
	}
	rt.emit(tid, agui.NewMessagesSnapshot(agui.FromHistory(stored)))
	return endSuccess
}

// loopFrom alternates model calls and tool runs, from a boundary, until
// the model answers without tool calls, the person stops, or something
// fails. It runs the model loop from a boundary (a continuation resumes
// right after the boundary it paused at). Middleware may pause the run at
// each boundary.
func (tr *turn) loopFrom(stage Boundary) ending {
	at := map[Boundary]int{BeforeModel: 0, AfterModel: 1, BeforeTools: 2, AfterTools: 3}[stage]
	var msg history.Message
	var calls []history.ToolCall
	if at == 1 || at == 2 {
		msg, calls = tr.openCalls()
		if len(calls) == 0 {
			if at == 2 {
				at = 3
			} else {
				return endSuccess
			}
		}
	}
	for {
		if at <= 0 {
			if tr.ctx.Err() != nil {
				// Stop in the gap between tools and the next model call.
				return endCancelled
			}
			if tr.modelCalls >= tr.rt.opts.MaxSteps {
				return tr.fail(fmt.Errorf("the turn made %d model calls without finishing; stopped as a safety limit", tr.modelCalls), "")
			}
			if end, paused := tr.hooks(BeforeModel, nil); paused {
				return end
			}
			var end ending
			msg, calls, end = tr.callModel()
			if end != endSuccess {
				return end
			}
			tr.modelCalls++
		}
		if at <= 1 {
			if end, paused := tr.hooks(AfterModel, calls); paused {
				return end
			}
			if len(calls) == 0 {
				return endSuccess
			}
		}
		if at <= 2 {
			if end, paused := tr.hooks(BeforeTools, calls); paused {
				return end
			}
			if end := tr.runCalls(msg, calls, nil); end != endSuccess {
				return end
			}
		}
		if end, paused := tr.hooks(AfterTools, calls); paused {
			return end
		}
		at = 0
	}
}

// openCalls returns the latest assistant message and its calls that have
// no result yet (a run paused between an answer and its tools).
func (tr *turn) openCalls() (history.Message, []history.ToolCall) {
	msgs, err := tr.rt.st.Messages(tr.save, tr.run.ThreadID)
	if err != nil {
		return history.Message{}, nil
	}
	return openCallsOf(msgs)
}

// openCallsOf is openCalls over loaded messages.
func openCallsOf(msgs []history.Message) (history.Message, []history.ToolCall) {
	answered := map[string]bool{}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		switch m.Role {
		case history.RoleTool:
			answered[m.ToolCallID] = true
		case history.RoleAssistant:
			var open []history.ToolCall
			for _, c := range m.ToolCalls {
				if !answered[c.ID] {
					open = append(open, c)
				}
			}
			return m, open
		}
	}
	return history.Message{}, nil
}

// callModel makes one model call with retries and returns the saved
// assistant message and its tool calls.
func (tr *turn) callModel() (history.Message, []history.ToolCall, ending) {
	rt := tr.rt
	// The thread's model may have changed since the turn began (the
	// picker applies from the next model call).
	m, err := rt.opts.Model(tr.save, tr.run.ThreadID)
	if err != nil {
		return history.Message{}, nil, tr.fail(err, "")
	}
	tr.model = m
	msgs, err := rt.st.Messages(tr.save, tr.run.ThreadID)
	if err != nil {
		return history.Message{}, nil, tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	// Tool call ids are unique in the whole thread (the exactly-once
	// record is per thread): other branches' ids count as used.
	used, err := rt.st.ToolCallIDs(tr.save, tr.run.ThreadID)
	if err != nil {
		return history.Message{}, nil, tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	msgs, instructions := withoutInstructions(msgs)
	valid, repaired := history.ForModel(msgs)
	if repaired {
		rt.log.Warn("repaired the history sent to the model", "thread", tr.run.ThreadID)
	}
	if rt.opts.ModelSeesImages != nil && rt.opts.ModelSeesImages() {
		valid = history.WithToolImages(valid)
	}
	valid = rt.attachmentParts(tr.save, valid)
	prefill := tr.prefill
	tr.prefill = nil
	if prefill != nil {
		// Not stored: what the model reads to go on with its answer.
		valid = append(valid, history.Message{Role: history.RoleUser, Content: ContinueInstruction, Status: history.StatusComplete})
	}
	req := model.Request{System: systemPrompt(rt.opts.System, instructions), Messages: valid}
	if tr.system != "" {
		req.System = tr.system
	}
	if tr.tools != nil {
		for _, s := range tr.tools.Specs() {
			req.Tools = append(req.Tools, model.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
		}
	}
	if !rt.opts.DisableAskUser && !tr.hasTool(AskUserTool) {
		req.Tools = append(req.Tools, askUserSpec)
	}
	msgID := NewID("msg")
	if prefill != nil {
		msgID = prefill.ID
	}
	for attempt := 1; ; attempt++ {
		res := tr.stream(req, msgID, used, prefill)
		switch {
		case res.stopped:
			tr.stoppedWhileStreaming(res)
			return history.Message{}, nil, endCancelled
		case res.err == nil:
			m := res.message(history.StatusComplete)
			err := rt.st.PutMessage(tr.save, m)
			rt.endLive(tr.run.ThreadID, tr.answer)
			if err != nil {
				return m, nil, tr.fail(fmt.Errorf("saving the answer: %w", err), m.ID)
			}
			tr.lastAnswer = &m
			return m, m.ToolCalls, endSuccess
		}
		var ee *model.EndpointError
		retry := errors.As(res.err, &ee) && ee.Retryable && !res.emitted && attempt < rt.opts.MaxAttempts
		if !retry {
			m := res.message(history.StatusError)
			m.ToolCalls = nil // an answer cut short never runs tools
			m.Error = res.err.Error()
			if err := rt.st.PutMessage(tr.save, m); err != nil {
				rt.log.Error("saving a failed answer", "err", err)
			}
			rt.endLive(tr.run.ThreadID, tr.answer)
			return m, nil, tr.fail(res.err, m.ID)
		}
		rt.endLive(tr.run.ThreadID, tr.answer) // nothing was emitted: the retry starts afresh
		delay := rt.opts.BackoffBase << (attempt - 1)
		if ee.RetryAfter > 0 {
			delay = ee.RetryAfter
		}
		delay = min(delay, rt.opts.BackoffMax)
		rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomRetrying, contract.RetryingEvent{Attempt: attempt + 1, DelayMs: delay.Milliseconds(), Reason: res.err.Error()}))
		timer := time.NewTimer(delay)
		select {
		case <-timer.C:
		case <-tr.ctx.Done():
			timer.Stop()
			return history.Message{}, nil, endCancelled // Stop during backoff
		}
	}
}

// stoppedWhileStreaming applies situation 1: the events are already closed
// and RUN_FINISHED follows at once; the partial answer is saved after it.
func (tr *turn) stoppedWhileStreaming(res *streamResult) {
	m := res.message(history.StatusInterrupted)
	m.ToolCalls = nil
	if !res.reasoningDone {
		m.Reasoning = ""
	}
	m.Content = history.WithMarker(m.Content)
	// Snapshots show the answer as it will be saved, right after the
	// terminal event.
	tr.answer.settle(m)
	tr.rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomStopped, contract.StoppedEvent{
		MessageID: m.ID, DroppedToolCallIDs: res.callIDs(), ReasoningDropped: res.reasoning.Len() > 0 && !res.reasoningDone,
	}))
	tr.pendingSave = &m
	tr.marked = true
}

// fail records why the turn ends in error.
func (tr *turn) fail(err error, messageID string) ending {
	tr.err = err
	tr.errMessageID = messageID
	return endError
}

// finish saves the run's end and returns its terminal event, to be sent
// once everything is saved, and the one save that follows it (the partial
// answer of Stop while streaming, so Stop never waits on the disk).
func (tr *turn) finish(end ending) (agui.Event, func()) {
	rt, tid := tr.rt, tr.run.ThreadID
	if end == endNothing {
		return nil, nil
	}
	if tr.leftWaiting && tr.ctx.Err() != nil {
		// Stop came as the run paused or handed calls off: nothing waits
		// behind a stopped run.
		for _, m := range tr.cancelPending(history.ResultInterrupted, contract.ToolInterrupted, rt.stopVia(tid)) {
			tr.markInterrupted(m)
		}
		tr.marked, end = true, endCancelled
	}
	if end == endCancelled && !tr.marked {
		// Stopped in a gap (between tools and the next model call, or
		// during a retry backoff): the marker still tells the model.
		m := history.Message{ID: NewID("msg"), ThreadID: tid, RunID: tr.run.ID, Role: history.RoleAssistant, CreatedAt: rt.now()}
		if tr.lastAnswer != nil {
			m = *tr.lastAnswer
		}
		m.Content, m.Status = history.WithMarker(m.Content), history.StatusInterrupted
		tr.pendingSave = &m
		rt.emit(tid, agui.NewCustom(contract.CustomStopped, contract.StoppedEvent{MessageID: m.ID, DroppedToolCallIDs: []string{}}))
	}
	var term agui.Event
	switch end {
	case endSuccess:
		tr.run.Status = history.RunFinished
		term = agui.NewRunFinished(tid, tr.run.ID, &agui.Outcome{Type: agui.OutcomeSuccess})
	case endClientPending:
		tr.run.Status = history.RunFinished
		term = agui.NewRunFinished(tid, tr.run.ID, &agui.Outcome{Type: agui.OutcomeSuccess, PendingToolCallIDs: tr.clientIDs})
	case endCancelled:
		tr.run.Status = history.RunCancelled
		term = agui.NewRunFinished(tid, tr.run.ID, &agui.Outcome{Type: agui.OutcomeCancelled})
	case endInterrupt:
		tr.run.Status = history.RunInterrupted
		o := &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: tr.interrupts}
		if b, err := json.Marshal(o); err == nil {
			tr.run.Outcome = b
		}
		term = agui.NewRunFinished(tid, tr.run.ID, o)
	case endError:
		tr.run.Status = history.RunError
		if tr.errMessageID != "" {
			rt.emit(tid, agui.NewCustom(contract.CustomMessageError, contract.MessageErrorEvent{MessageID: tr.errMessageID, Error: tr.err.Error()}))
		}
		term = agui.NewRunError(tr.err.Error(), errorCode(tr.err), map[string]any{"threadId": tid, "runId": tr.run.ID})
	}
	tr.run.FinishedAt = rt.now()
	tr.run.Steps = tr.modelCalls
	saveRun := func() {
		if err := rt.st.PutRun(tr.save, tr.run); err != nil {
			rt.log.Error("saving the run", "thread", tid, "err", err)
		}
	}
	if tr.pendingSave == nil {
		saveRun()
		return term, nil
	}
	m := *tr.pendingSave
	return term, func() {
		if err := rt.st.PutMessage(tr.save, m); err != nil {
			rt.log.Error("saving the interrupted answer", "thread", tid, "err", err)
		}
		rt.endLive(tid, tr.answer)
		saveRun()
	}
}

// errorCode is the RUN_ERROR code of a failed turn.
func errorCode(err error) string {
	var ee *model.EndpointError
	switch {
	case errors.As(err, &ee) && ee.Status != 0:
		return fmt.Sprintf("endpoint_%d", ee.Status)
	case errors.As(err, &ee):
		return "endpoint_error"
	case errors.Is(err, ErrNotConfigured):
		return "not_configured"
	}
	return "runtime_error"
}

// keepUnsent saves queued input that will not run (shutdown) as messages.
func (rt *Runtime) keepUnsent(threadID string, left []Input) {
	ctx := context.Background()
	for _, in := range left {
		if in.Text == "" {
			continue
		}
		m := history.Message{ID: NewID("msg"), ThreadID: threadID, Role: history.RoleUser, Content: in.Text, Status: history.StatusComplete, CreatedAt: rt.now()}
		if err := rt.st.PutMessage(ctx, m); err != nil {
			rt.log.Error("saving queued input at shutdown", "thread", threadID, "err", err)
		}
	}
}
