package agent

import (
	"context"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/history"
)

// Snapshots that meet the live stream exactly. A window that opens a
// thread mid-answer (a reload, a chat switch) loads a snapshot and then
// applies the live events. The store only holds the last checkpoint of a
// streaming answer, so the runtime keeps the answer being streamed in
// memory (liveAnswer) and Snapshot overlays it: the snapshot is never
// older than the moment it was taken. Two things make the meeting exact:
//
//   - Snapshot reports Seq, the broker's sequence number read before
//     anything else: every event up to Seq is reflected in the snapshot
//     (the runtime saves before it publishes, and deltas are in the live
//     answer). Events after Seq may be reflected too.
//   - Every delta event carries its Offset: where its text starts in its
//     message, its reasoning or its call's arguments, in UTF-16 code units
//     (what a JavaScript string counts). A client appends only the part
//     of a delta beyond what it already has, so a delta already in the
//     snapshot is never applied twice and a coalesced delta that straddles
//     the snapshot is cut exactly.

// liveAnswer is the answer a turn is streaming, shared with Snapshot.
type liveAnswer struct {
	mu    sync.Mutex
	res   *streamResult
	final *history.Message // the answer's final form, before it is saved (Stop)
}

// goLive publishes a turn's streaming answer for snapshots.
func (rt *Runtime) goLive(threadID string, res *streamResult) *liveAnswer {
	lv := &liveAnswer{res: res}
	rt.liveMu.Lock()
	if rt.live == nil {
		rt.live = map[string]*liveAnswer{}
	}
	rt.live[threadID] = lv
	rt.liveMu.Unlock()
	return lv
}

// endLive withdraws a streaming answer once the store holds its final
// form (nil-safe; a newer answer of the thread is left alone).
func (rt *Runtime) endLive(threadID string, lv *liveAnswer) {
	if lv == nil {
		return
	}
	rt.liveMu.Lock()
	if rt.live[threadID] == lv {
		delete(rt.live, threadID)
	}
	rt.liveMu.Unlock()
}

// settle records the answer's final form until it is saved.
func (lv *liveAnswer) settle(m history.Message) {
	if lv == nil {
		return
	}
	lv.mu.Lock()
	lv.final = &m
	lv.mu.Unlock()
}

// message is the answer as far as it streamed: its text, reasoning and
// the calls that started, with the arguments so far.
func (lv *liveAnswer) message() history.Message {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.final != nil {
		return *lv.final
	}
	r := lv.res
	m := history.Message{
		ID: r.msgID, ThreadID: r.threadID, RunID: r.runID, Role: history.RoleAssistant,
		Content: r.text.String(), Reasoning: r.reasoning.String(), Status: history.StatusStreaming, CreatedAt: r.createdAt,
	}
	for _, c := range r.calls {
		if c.started {
			m.ToolCalls = append(m.ToolCalls, history.ToolCall{ID: c.id, Name: c.name, Arguments: c.args.String()})
		}
	}
	return m
}

// ThreadSnapshot is a thread's messages as of Seq (see Snapshot).
type ThreadSnapshot struct {
	Seq      uint64
	Messages []history.Message
}

// Snapshot returns the thread's messages with the answer being streamed
// as far as it got, and the broker sequence number every event up to
// which they reflect. A streaming message in the store that is not the
// live answer is a stale checkpoint (the answer is being committed, or a
// newer one started after Seq): it is left out, and the events after
// Seq bring it.
func (rt *Runtime) Snapshot(ctx context.Context, threadID string) (ThreadSnapshot, error) {
	seq := rt.events.LastSeq()
	rt.liveMu.Lock()
	lv := rt.live[threadID]
	rt.liveMu.Unlock()
	var live *history.Message
	if lv != nil {
		m := lv.message()
		live = &m
	}
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		return ThreadSnapshot{}, err
	}
	out := make([]history.Message, 0, len(msgs)+1)
	placed := false
	for _, m := range msgs {
		switch {
		case live != nil && m.ID == live.ID:
			out = append(out, *live)
			placed = true
		case m.Status == history.StatusStreaming:
			// a stale checkpoint: see above
		default:
			out = append(out, m)
		}
	}
	if live != nil && !placed {
		out = append(out, *live)
	}
	return ThreadSnapshot{Seq: seq, Messages: out}, nil
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if utf16.RuneLen(r) == 2 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
