package threads

import (
	"context"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// Store is what a Reader reads from the database (*store.DB has it).
type Store interface {
	Thread(ctx context.Context, id string) (history.Thread, error)
	ListThreads(ctx context.Context, cursor string, limit int) (store.ThreadPage, error)
	PendingCounts(ctx context.Context, threadIDs []string) (map[string]int, error)
	ThreadUsage(ctx context.Context, threadID string) (history.ThreadUsage, error)
}

// Runtime is what a Reader asks the runtime (*agent.Runtime has it).
type Runtime interface {
	Running(threadID string) (bool, string)
	WaitSettled(ctx context.Context, threadID string) error
	Snapshot(ctx context.Context, threadID string) (agent.ThreadSnapshot, error)
	State(ctx context.Context, threadID string, msgs []history.Message) (agent.ThreadState, error)
}

// Reader lists and shows threads: the store's rows with the runtime's
// view of them.
type Reader struct {
	Store   Store
	Runtime Runtime
}

// ThreadPage is one page of ListThreads.
type ThreadPage struct {
	Threads    []ThreadListItem `json:"threads"`
	NextCursor string           `json:"nextCursor"`
}

// ThreadListItem is a thread as the sidebar lists it: the thread's own
// fields (at the top level) plus what it is doing now. Running is the
// runtime's view (a turn runs); Waiting counts what waits on the person:
// every pending interrupt (unbound ones included, see docs/contract.md)
// plus every pending client tool call.
type ThreadListItem struct {
	history.Thread
	Running bool `json:"running"`
	Waiting int  `json:"waiting"`
}

// Page lists threads, pinned first then newest activity first, each
// with its running and waiting state (one extra store query per page).
func (r Reader) Page(ctx context.Context, cursor string, limit int) (ThreadPage, error) {
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	p, err := r.Store.ListThreads(ctx, cursor, limit)
	if err != nil {
		return ThreadPage{}, err
	}
	ids := make([]string, len(p.Threads))
	for i, t := range p.Threads {
		ids[i] = t.ID
	}
	waiting, err := r.Store.PendingCounts(ctx, ids)
	if err != nil {
		return ThreadPage{}, err
	}
	items := make([]ThreadListItem, len(p.Threads))
	for i, t := range p.Threads {
		running, _ := r.Runtime.Running(t.ID)
		items[i] = ThreadListItem{Thread: t, Running: running, Waiting: waiting[t.ID]}
	}
	return ThreadPage{Threads: items, NextCursor: p.NextCursor}, nil
}

// Busy says whether closing now would cut something short: a turn running
// or a decision (approval, question, client tool) waiting in any thread.
func (r Reader) Busy(ctx context.Context) (bool, error) {
	cursor := ""
	for {
		p, err := r.Store.ListThreads(ctx, cursor, 500)
		if err != nil {
			return false, err
		}
		ids := make([]string, len(p.Threads))
		for i, t := range p.Threads {
			ids[i] = t.ID
			if running, _ := r.Runtime.Running(t.ID); running {
				return true, nil
			}
		}
		waiting, err := r.Store.PendingCounts(ctx, ids)
		if err != nil {
			return false, err
		}
		if len(waiting) > 0 {
			return true, nil
		}
		if p.NextCursor == "" {
			return false, nil
		}
		cursor = p.NextCursor
	}
}

// ThreadView is a thread with everything the window shows.
type ThreadView struct {
	Thread     history.Thread    `json:"thread"`
	Messages   []history.Message `json:"messages"`
	Running    bool              `json:"running"`
	RunID      string            `json:"runId,omitempty"`
	Queued     []string          `json:"queued"`
	Interrupts []agui.Interrupt  `json:"interrupts"`
	// InterruptKinds gives each listed interrupt's kind by id:
	// "tool-approval", "generic" or "unbound" (display-only, never blocks).
	InterruptKinds map[string]string             `json:"interruptKinds"`
	ClientTools    []history.ClientToolCall      `json:"clientTools"`
	ToolStates     map[string]contract.ToolState `json:"toolStates"`
	// Answered lists the waiting items (interrupt ids, client tool call
	// ids) that already have a kept answer: the batch waits for the rest.
	Answered []string `json:"answered"`
	// EventSeq is the broker sequence number the view reflects: every
	// event up to it is in the view (the answer being streamed included,
	// as far as it got), so the window applies only the events after it
	// (deltas by their offset; the others are idempotent).
	EventSeq uint64 `json:"eventSeq"`
	// EditedArgs are the arguments calls ran with after the person edited
	// them on the approval card, by call id (the message keeps the model's).
	EditedArgs map[string]string `json:"editedArgs"`
	// Usage is the token count of the thread's answers on every branch.
	Usage history.ThreadUsage `json:"usage"`
}

// View returns a thread with its messages and live state.
func (r Reader) View(ctx context.Context, threadID string) (ThreadView, error) {
	t, err := r.Store.Thread(ctx, threadID)
	if err != nil {
		return ThreadView{}, err
	}
	// A run whose terminal event is out but whose last write is not (Stop
	// just clicked) would read as running, and the window would wait for
	// an end it already had (issue 19 #28: no Continue button).
	if err := r.Runtime.WaitSettled(ctx, threadID); err != nil {
		return ThreadView{}, err
	}
	snap, err := r.Runtime.Snapshot(ctx, threadID)
	if err != nil {
		return ThreadView{}, err
	}
	msgs := snap.Messages
	// The instructions the thread runs with: those on the path shown.
	t.Options.SystemPrompt, _ = history.Instructions(msgs)
	st, err := r.Runtime.State(ctx, threadID, msgs)
	if err != nil {
		return ThreadView{}, err
	}
	v := ThreadView{
		Thread: t, Messages: msgs, Running: st.Running, RunID: st.RunID, Queued: st.Queued,
		Interrupts: []agui.Interrupt{}, InterruptKinds: map[string]string{}, ClientTools: []history.ClientToolCall{},
		ToolStates: st.ToolStates, Answered: st.Answered, EventSeq: snap.Seq, EditedArgs: st.EditedArgs,
	}
	for _, it := range st.Items {
		v.Interrupts = append(v.Interrupts, it.Interrupt)
		v.InterruptKinds[it.Interrupt.ID] = it.Kind
	}
	v.ClientTools = append(v.ClientTools, st.ClientTools...)
	if v.Usage, err = r.Store.ThreadUsage(ctx, threadID); err != nil {
		return ThreadView{}, err
	}
	if v.Messages == nil {
		v.Messages = []history.Message{}
	}
	return v, nil
}
