package agent

import (
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// streamResult is what one model call produced.
type streamResult struct {
	msgID, threadID, runID string
	createdAt              int64
	text                   strings.Builder
	reasoning              strings.Builder
	reasoningDone          bool
	calls                  []*callBuf // in index order of first appearance
	emitted                bool       // anything reached the person (no silent retry then)
	stopped                bool
	err                    error
}

type callBuf struct {
	index   int
	id      string
	name    string
	args    strings.Builder
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
func (tr *turn) stream(req model.Request, msgID string, used map[string]bool) *streamResult {
	rt, tid := tr.rt, tr.run.ThreadID
	res := &streamResult{msgID: msgID, threadID: tid, runID: tr.run.ID, createdAt: rt.now()}

	deltas := make(chan model.Delta, 64)
	readErr := make(chan error, 1)
	go func() { // the stream reader: owns the model's stream
		defer close(deltas)
		for d, err := range tr.model.Deltas(tr.ctx, req) {
			if err != nil {
				readErr <- err
				return
			}
			select {
			case deltas <- d:
			case <-tr.ctx.Done():
				readErr <- tr.ctx.Err()
				return
			}
		}
		readErr <- nil
	}()

	var (
		textOpen, reasoningOpen bool
		reasoningID             = msgID + "-reasoning"
		lastCheckpoint          = time.Now()
		byIndex                 = map[int]*callBuf{}
		seenIDs                 = used
	)
	if seenIDs == nil {
		seenIDs = map[string]bool{}
	}
	closeReasoning := func(done bool) {
		if reasoningOpen {
			rt.emit(tid, agui.NewReasoningMessageEnd(reasoningID))
			rt.emit(tid, agui.NewReasoningEnd(reasoningID))
			reasoningOpen = false
			res.reasoningDone = done
		}
	}
	closeAll := func(done bool) {
		closeReasoning(done)
		if textOpen {
			rt.emit(tid, agui.NewTextEnd(msgID))
			textOpen = false
		}
		for _, c := range res.calls {
			if c.started {
				rt.emit(tid, agui.NewToolCallEnd(c.id))
			}
		}
	}

	// A delta that arrives just after a checkpoint is handed over by the
	// timer if no further delta comes (a model that pauses mid-answer).
	checkpoint := func() {
		lastCheckpoint = time.Now()
		m := res.message(history.StatusStreaming)
		m.ToolCalls = nil // not complete yet
		rt.st.Checkpoint(m)
	}
	cpTimer := time.NewTimer(time.Hour)
	cpTimer.Stop()
	defer cpTimer.Stop()
	cpArmed := false
	for {
		select {
		case <-cpTimer.C:
			cpArmed = false
			checkpoint()
		case <-tr.ctx.Done():
			res.stopped = true
			closeAll(false)
			return res
		case d, ok := <-deltas:
			if !ok {
				err := <-readErr
				if tr.ctx.Err() != nil {
					res.stopped = true
					closeAll(false)
					return res
				}
				res.err = err
				closeAll(err == nil)
				return res
			}
			if d.Reasoning != "" {
				if !reasoningOpen && !res.reasoningDone {
					rt.emit(tid, agui.NewReasoningStart(reasoningID))
					rt.emit(tid, agui.NewReasoningMessageStart(reasoningID))
					reasoningOpen = true
				}
				if reasoningOpen {
					res.reasoning.WriteString(d.Reasoning)
					rt.emit(tid, agui.NewReasoningContent(reasoningID, d.Reasoning))
					res.emitted = true
				}
			}
			if d.Text != "" {
				closeReasoning(true)
				if !textOpen && res.text.Len() == 0 {
					rt.emit(tid, agui.NewTextStart(msgID))
					textOpen = true
				}
				if textOpen {
					res.text.WriteString(d.Text)
					rt.emit(tid, agui.NewTextContent(msgID, d.Text))
					res.emitted = true
				}
			}
			for _, tc := range d.ToolCalls {
				closeReasoning(true)
				c := byIndex[tc.Index]
				if c == nil {
					c = &callBuf{index: tc.Index}
					byIndex[tc.Index] = c
					res.calls = append(res.calls, c)
				}
				if c.id == "" && tc.ID != "" {
					c.id = tc.ID
				}
				if c.name == "" {
					// Taken once: some servers repeat the whole name in
					// every chunk of the call.
					c.name = tc.Name
				}
				if !c.started && c.name != "" {
					if c.id == "" || seenIDs[c.id] {
						// Some local servers send no ids; some number
						// them per response, repeating earlier turns'.
						c.id = NewID("call")
					}
					seenIDs[c.id] = true
					rt.emit(tid, agui.NewToolCallStart(c.id, c.name, msgID))
					c.started = true
					res.emitted = true
					if c.args.Len() > 0 {
						rt.emit(tid, agui.NewToolCallArgs(c.id, c.args.String()))
					}
				}
				if tc.Arguments != "" {
					c.args.WriteString(tc.Arguments)
					if c.started {
						rt.emit(tid, agui.NewToolCallArgs(c.id, tc.Arguments))
					}
				}
			}
			if since := time.Since(lastCheckpoint); since >= rt.opts.CheckpointEvery {
				if cpArmed {
					cpTimer.Stop()
					cpArmed = false
				}
				checkpoint()
			} else if !cpArmed {
				cpTimer.Reset(rt.opts.CheckpointEvery - since)
				cpArmed = true
			}
		}
	}
}
