package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// deltaText is text that grows by deltas and knows its length in UTF-16
// code units: the Offset of the next delta (live.go).
type deltaText struct {
	strings.Builder
	units int
}

// add appends delta and returns where it starts.
func (t *deltaText) add(delta string) (offset int) {
	offset = t.units
	t.WriteString(delta)
	t.units += utf16Len(delta)
	return offset
}

// streamResult is what one model call produced.
type streamResult struct {
	msgID, threadID, runID string
	createdAt              int64
	text                   deltaText
	reasoning              deltaText
	textStarted            bool // TEXT_MESSAGE_START was sent (once per answer)
	reasoningDone          bool
	calls                  []*callBuf // in index order of first appearance
	emitted                bool       // anything reached the person (no silent retry then)
	stopped                bool
	err                    error
	// usage is the endpoint's count for the call (nil until it sends
	// one; many local servers never do); model names who answered.
	usage *history.Usage
	model string
}

type callBuf struct {
	index   int
	id      string
	name    string
	args    deltaText
	started bool
}

func (r *streamResult) callIDs() []string {
	ids := make([]string, 0, len(r.calls))
	for _, c := range r.calls {
		if c.started {
			ids = append(ids, c.id)
		}
	}
	return ids
}

// message is the assistant message as far as it got.
func (r *streamResult) message(st history.Status) history.Message {
	m := history.Message{
		ID: r.msgID, ThreadID: r.threadID, RunID: r.runID, Role: history.RoleAssistant,
		Content: r.text.String(), Reasoning: r.reasoning.String(), Status: st, CreatedAt: r.createdAt,
		Usage: r.usage, Model: r.model,
	}
	for _, c := range r.calls {
		args := c.args.String()
		if strings.TrimSpace(args) == "" {
			args = "{}" // never stored or re-sent as null
		}
		m.ToolCalls = append(m.ToolCalls, history.ToolCall{ID: c.id, Name: c.name, Arguments: args})
	}
	return m
}

// stream runs one model call, emitting its events live. On Stop it closes
// every open event at once and returns with stopped set; the stream reader
// is left to wind down on its own (its request context is cancelled).
func (tr *turn) stream(req model.Request, msgID string, used map[string]bool, prefill *history.Message) *streamResult {
	res := &streamResult{msgID: msgID, threadID: tr.run.ThreadID, runID: tr.run.ID, createdAt: tr.rt.now(), model: modelName(tr.model)}
	if prefill != nil {
		// Continue in place: the answer so far, without its mark, and its
		// reasoning (done: a continuation adds no second span).
		text, _ := history.StripMarker(prefill.Content)
		res.text.add(text)
		res.reasoning.add(prefill.Reasoning)
		res.reasoningDone = prefill.Reasoning != ""
		res.createdAt = prefill.CreatedAt
		res.usage = prefill.Usage // the continuation's count adds to it
	}
	if used == nil {
		used = map[string]bool{}
	}
	st := &streamer{tr: tr, res: res, reasoningID: msgID + "-reasoning", byIndex: map[int]*callBuf{}, seenIDs: used}
	st.lv = tr.rt.goLive(tr.run.ThreadID, res)
	tr.answer = st.lv
	if prefill != nil {
		// The stored answer is "interrupted", and a snapshot never
		// overwrites a final state: store it as streaming again, so the
		// continued text is checkpointed like any streamed text and a
		// crash keeps it (recovery marks it interrupted again). Only once
		// it is live: a streaming row that is not live reads as a stale
		// checkpoint, and a snapshot would leave the answer out.
		m := res.message(history.StatusStreaming)
		if err := tr.rt.st.PutMessage(tr.save, m); err != nil {
			tr.rt.log.Warn("reopening the stopped answer; its continuation is not checkpointed", "message", m.ID, "err", err)
		}
	}
	st.size = res.text.Len() + res.reasoning.Len()
	// The reader stops when this call ends, also when it ends early
	// because the answer passed its budget.
	ctx, cancel := context.WithCancel(tr.ctx)
	defer cancel()
	deltas, readErr := tr.readModel(ctx, req)

	// A delta that arrives just after a checkpoint is handed over by the
	// timer if no further delta comes (a model that pauses mid-answer).
	cp := checkpointer{every: tr.rt.opts.CheckpointEvery, last: time.Now(), timer: time.NewTimer(time.Hour)}
	cp.timer.Stop()
	defer cp.timer.Stop()
	for {
		select {
		case <-cp.timer.C:
			cp.armed = false
			st.checkpoint(&cp)
		case <-tr.ctx.Done():
			res.stopped = true
			st.closeAll(false)
			return res
		case d, ok := <-deltas:
			if !ok {
				err := <-readErr
				if tr.ctx.Err() != nil {
					res.stopped = true
					st.closeAll(false)
					return res
				}
				res.err = err
				st.closeAll(err == nil)
				return res
			}
			if d.Usage != nil {
				u := history.Usage{PromptTokens: d.Usage.PromptTokens, CompletionTokens: d.Usage.CompletionTokens, TotalTokens: d.Usage.TotalTokens}
				if prefill != nil && prefill.Usage != nil {
					u = u.Add(*prefill.Usage)
				}
				res.usage = &u
			}
			if err := st.overBudget(d); err != nil {
				res.err = err
				st.closeAll(false)
				return res
			}
			st.reasoning(d.Reasoning)
			st.text(d.Text)
			for _, tc := range d.ToolCalls {
				st.toolCall(tc)
			}
			if cp.due() {
				st.checkpoint(&cp)
			}
		}
	}
}

// readModel starts the stream reader, which owns the model's stream: its
// deltas arrive on the first channel, then the stream's error (nil at a
// normal end) on the second.
func (tr *turn) readModel(ctx context.Context, req model.Request) (<-chan model.Delta, <-chan error) {
	deltas := make(chan model.Delta, 64)
	readErr := make(chan error, 1)
	go func() {
		defer close(deltas)
		for d, err := range tr.model.Deltas(ctx, req) {
			if err != nil {
				readErr <- err
				return
			}
			select {
			case deltas <- d:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
		}
		readErr <- nil
	}()
	return deltas, readErr
}

// checkpointer paces streaming snapshots: at most one per interval, and
// the last delta is never left unsaved for longer than that.
type checkpointer struct {
	every time.Duration
	last  time.Time
	timer *time.Timer
	armed bool
}

// due reports whether a snapshot is due now; when not, it arms the timer
// so the latest delta is saved once the interval has passed.
func (c *checkpointer) due() bool {
	since := time.Since(c.last)
	if since >= c.every {
		if c.armed {
			c.timer.Stop()
			c.armed = false
		}
		return true
	}
	if !c.armed {
		c.timer.Reset(c.every - since)
		c.armed = true
	}
	return false
}

// streamer turns one model call's deltas into AG-UI events and the
// answer as far as it got. It is owned by the turn's goroutine.
type streamer struct {
	tr                      *turn
	res                     *streamResult
	reasoningID             string
	textOpen, reasoningOpen bool
	byIndex                 map[int]*callBuf
	seenIDs                 map[string]bool // call ids of the thread so far
	// lv shares the answer with snapshots: every change to res that a
	// snapshot reads is made under lv.mu.
	lv *liveAnswer
	// size is the answer's bytes so far (MaxAnswerBytes).
	size int
}

// overBudget counts d against the answer's budgets and says, as a
// non-retryable endpoint error, when it would take the answer past one.
func (s *streamer) overBudget(d model.Delta) error {
	n := len(d.Text) + len(d.Reasoning)
	calls := len(s.byIndex)
	for _, tc := range d.ToolCalls {
		n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		if s.byIndex[tc.Index] == nil {
			calls++
		}
	}
	switch {
	case s.size+n > MaxAnswerBytes:
		return &model.EndpointError{Message: fmt.Sprintf("the answer passed %d MiB and was cut there", MaxAnswerBytes>>20)}
	case calls > MaxAnswerCalls:
		return &model.EndpointError{Message: fmt.Sprintf("the answer asked for more than %d tool calls and was cut there", MaxAnswerCalls)}
	}
	s.size += n
	return nil
}

func (s *streamer) emit(ev agui.Event) { s.tr.rt.emit(s.res.threadID, ev) }

func (s *streamer) checkpoint(c *checkpointer) {
	c.last = time.Now()
	m := s.res.message(history.StatusStreaming)
	m.ToolCalls = nil // not complete yet
	s.tr.rt.st.Checkpoint(m)
}

func (s *streamer) closeReasoning(done bool) {
	if s.reasoningOpen {
		s.emit(agui.NewReasoningMessageEnd(s.reasoningID))
		s.emit(agui.NewReasoningEnd(s.reasoningID))
		s.reasoningOpen = false
		s.res.reasoningDone = done
	}
}

// closeAll closes every open event (done: the answer is complete).
func (s *streamer) closeAll(done bool) {
	s.closeReasoning(done)
	if s.textOpen {
		s.emit(agui.NewTextEnd(s.res.msgID))
		s.textOpen = false
	}
	for _, c := range s.res.calls {
		if c.started {
			s.emit(agui.NewToolCallEnd(c.id))
		}
	}
}

// reasoning streams reasoning until the answer text or a call starts.
func (s *streamer) reasoning(delta string) {
	if delta == "" {
		return
	}
	if !s.reasoningOpen && !s.res.reasoningDone {
		s.emit(agui.NewReasoningStart(s.reasoningID))
		s.emit(agui.NewReasoningMessageStart(s.reasoningID))
		s.reasoningOpen = true
	}
	if s.reasoningOpen {
		s.lv.mu.Lock()
		at := s.res.reasoning.add(delta)
		s.lv.mu.Unlock()
		s.tr.rt.emitDelta(s.res.threadID, agui.NewReasoningContent(s.reasoningID, delta), at)
		s.res.emitted = true
	}
}

// text streams the answer's text (one text message per answer).
func (s *streamer) text(delta string) {
	if delta == "" {
		return
	}
	s.closeReasoning(true)
	if !s.textOpen && !s.res.textStarted {
		s.emit(agui.NewTextStart(s.res.msgID))
		s.textOpen, s.res.textStarted = true, true
	}
	if s.textOpen {
		s.lv.mu.Lock()
		at := s.res.text.add(delta)
		s.lv.mu.Unlock()
		s.tr.rt.emitDelta(s.res.threadID, agui.NewTextContent(s.res.msgID, delta), at)
		s.res.emitted = true
	}
}

// toolCall adds one fragment of a call: the call starts once it has a
// name (taken once), and its arguments stream as they come.
func (s *streamer) toolCall(tc model.ToolCallDelta) {
	s.closeReasoning(true)
	s.lv.mu.Lock()
	c := s.byIndex[tc.Index]
	if c == nil {
		c = &callBuf{index: tc.Index}
		s.byIndex[tc.Index] = c
		s.res.calls = append(s.res.calls, c)
	}
	if c.id == "" && tc.ID != "" {
		c.id = tc.ID
	}
	if c.name == "" {
		// Taken once: some servers repeat the whole name in every chunk
		// of the call.
		c.name = tc.Name
	}
	starts := !c.started && c.name != ""
	if starts {
		if c.id == "" || s.seenIDs[c.id] || IsViewCall(c.id) {
			// (A model's id never passes for a view's call: viewcall.go.)
			// Some local servers send no ids; some number them per
			// response, repeating earlier turns'.
			c.id = NewID("call")
		}
		s.seenIDs[c.id] = true
		c.started = true
	}
	before := c.args.String() // what a start sends at once
	at := c.args.add(tc.Arguments)
	s.lv.mu.Unlock()
	if starts {
		s.emit(agui.NewToolCallStart(c.id, c.name, s.res.msgID))
		s.res.emitted = true
		if before != "" {
			s.tr.rt.emitDelta(s.res.threadID, agui.NewToolCallArgs(c.id, before), 0)
		}
	}
	if tc.Arguments != "" && c.started {
		s.tr.rt.emitDelta(s.res.threadID, agui.NewToolCallArgs(c.id, tc.Arguments), at)
	}
}

// modelName is the name of the model behind m, when it says ("" when not).
func modelName(m Model) string {
	if n, ok := m.(interface{ Model() string }); ok {
		return n.Model()
	}
	return ""
}

// Budgets of one model answer, decided before it streams: an endpoint
// that never stops answering is cut here, its answer kept with an error.
const (
	// MaxAnswerBytes bounds an answer's text, reasoning and tool-call
	// names and arguments together (the import's 4 MiB a message).
	MaxAnswerBytes = 4 << 20
	// MaxAnswerCalls bounds the tool calls of one answer.
	MaxAnswerCalls = 256
)
