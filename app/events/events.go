// Package events is the window's event vocabulary: the names and data the
// runtime broker's envelopes become for the frontend (Frame, read by both
// transports and by internal/contractgen), and the desktop forwarder that
// paces and batches them into Wails events. It imports no app.
package events

import (
	"context"
	"log/slog"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
)

// AGUIEvent is the data of an "agui" event. Seq is the event's place in
// the broker's stream (a snapshot reflects every event up to its
// ThreadView.EventSeq); Offset, on deltas, is where the delta's text
// starts in its message, reasoning or call arguments, in UTF-16 code
// units, so the window appends exactly the part it does not have.
type AGUIEvent struct {
	ThreadID string     `json:"threadId"`
	Event    agui.Event `json:"event"`
	Seq      uint64     `json:"seq"`
	Offset   *int       `json:"offset,omitempty"`
}

// QueueEvent is the data of a "queue" event.
type QueueEvent struct {
	ThreadID string   `json:"threadId"`
	Queued   []string `json:"queued"`
}

// ThreadsEvent is the data of a "threads" event: the thread list changed.
type ThreadsEvent struct {
	ThreadID string `json:"threadId,omitempty"`
}

// Emitter sends a named event to the frontend (the desktop window).
type Emitter interface {
	Emit(name string, data any)
}

// BatchFrame is one event inside a desktop "batch" event.
type BatchFrame struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// minEmitGap is the shortest time between two Wails events while only
// deltas stream: deltas that come sooner wait for the gap's end and go out
// together (the broker merges them meanwhile, without waking the
// forwarder). Each Wails event is a JavaScript evaluation in the WebView
// and a hop to the GTK main thread (a wake-up of its loop, a cgo callback
// into Go and a message to the web process); at 1,000 tokens/s one event
// per token cost the app process ~380 µs per token (bench/floorstream).
// The page paints once per animation frame, so a gap of up to one frame
// (16.7 ms at 60 Hz) delays a character by at most one frame: each one
// is painted in the frame after the one it arrived in, or earlier; 16 ms
// is about one event per frame. The first delta after a pause and every
// other event (a run's start and end, tool calls, the queue) go out at
// once.
const minEmitGap = 16 * time.Millisecond

// Forward turns the broker's envelopes into the desktop window's events
// until ctx ends; it owns sub. emitter is the window's emitter as it is
// now. It reads in batches (the broker coalesces the deltas that
// queued up meanwhile) and sends each batch as ONE Wails event, "batch"
// with its frames in order: every Wails event is a separate JavaScript
// evaluation in the WebView, so a window that is behind catches up in one.
// A batch of one frame goes out as that plain event. flow, when not nil,
// paces the deltas to what the window has taken in (Flow).
func Forward(ctx context.Context, sub *broker.Subscription, emitter func() Emitter, flow *Flow) {
	defer sub.Close()
	var batch []broker.Envelope
	var last time.Time
	unanswered := false // an event went out that the window has not acknowledged
	for {
		var err error
		batch, err = sub.NextBatch(ctx, batch)
		if err != nil {
			return
		}
		if flow != nil && unanswered && onlyDeltas(batch) {
			batch = flow.wait(ctx, sub, batch, last)
		}
		if time.Since(last) < minEmitGap && onlyDeltas(batch) {
			batch = gather(ctx, sub, batch, last.Add(minEmitGap))
		}
		// A new slice each time: an Emitter may keep what it was given.
		frames := make([]BatchFrame, 0, len(batch)+2)
		for _, env := range batch {
			name, data := Frame(env)
			if cannotEncode(env) {
				// Wails drops an event it cannot encode, and the whole
				// batch with it: the window reloads what it shows instead.
				name, data = ResyncEvent, struct{}{}
			}
			frames = append(frames, BatchFrame{Name: name, Data: data})
			if ListChanges(env) {
				frames = append(frames, BatchFrame{Name: "threads", Data: ThreadsEvent{ThreadID: env.ThreadID}})
			}
		}
		e := emitter()
		if flow != nil {
			flow.forget()
			unanswered = true
		}
		if len(frames) == 1 && frames[0].Name != ResyncEvent {
			e.Emit(frames[0].Name, frames[0].Data)
		} else {
			e.Emit("batch", frames)
		}
		last = time.Now()
	}
}

// ResyncEvent is the frame, always inside a "batch" event, that tells the
// window to reload what it shows from the store: an event could not be
// encoded (a NaN in a value), as app/web's stream says it.
const ResyncEvent = "resync"

// cannotEncode reports whether an AG-UI envelope's event has no JSON. A
// delta is not checked: the runtime never gives one a value of its own
// (only strings), and a merged delta has no shared encoding, so checking
// would encode every one again on the stream's hot path. Any other event's
// JSON is encoded once per published envelope and shared (the browser's
// stream, the replay ring's snapshots). A MESSAGES_SNAPSHOT without
// metadata is not checked either: its messages are strings only, so its
// JSON cannot fail, and with no page able to resume nothing else encodes
// it (the window gets it typed): checking would encode the whole thread
// for nothing on every pause (TestCannotEncodeDoesNotEncodeASnapshot).
func cannotEncode(env broker.Envelope) bool {
	if env.Name != broker.EnvelopeAGUI || env.Event == nil || env.IsDelta() {
		return false
	}
	if s, ok := env.Event.(*agui.MessagesSnapshot); ok && s.Metadata == nil {
		return false
	}
	return env.EventJSON() == nil
}

// gather adds to a batch of deltas what arrives until the gap ends at
// until, sleeping through further deltas (the broker coalesces them
// meanwhile instead of waking this goroutine once per token), and stops
// waiting at once when something else arrives (a run's end, a tool
// call): only deltas are ever held back, never a terminal event. A delta
// that continues the batch's last one is merged into it, so the window
// appends one string per message per event.
func gather(ctx context.Context, sub *broker.Subscription, batch []broker.Envelope, until time.Time) []broker.Envelope {
	_ = sub.WaitMust(ctx, until) // ctx's end: Forward's next read returns
	return sub.AppendQueued(batch)
}

// onlyDeltas reports whether every envelope is a streaming delta (text,
// reasoning or tool-call arguments).
func onlyDeltas(batch []broker.Envelope) bool {
	for _, env := range batch {
		if env.Name != broker.EnvelopeAGUI {
			return false
		}
		switch env.Event.EventType() {
		case agui.TypeTextMessageContent, agui.TypeReasoningMessageContent, agui.TypeToolCallArgs:
		default:
			return false
		}
	}
	return true
}

// Frame is the frontend event an envelope becomes: its name and data.
// The runtime's run events also announce thread-list changes (a run
// started or ended), so the sidebar follows.
func Frame(env broker.Envelope) (string, any) {
	switch env.Name {
	case broker.EnvelopeQueue:
		return "queue", QueueEvent{ThreadID: env.ThreadID, Queued: env.Queued}
	case broker.EnvelopeAGUI:
		ev := AGUIEvent{ThreadID: env.ThreadID, Event: env.Event, Seq: env.Seq}
		if env.IsDelta() {
			off := env.Offset
			ev.Offset = &off
		}
		return "agui", ev
	case broker.EnvelopeThreads:
		return "threads", ThreadsEvent{ThreadID: env.ThreadID}
	}
	return env.Name, env.Data
}

// ListChanges reports whether an envelope changes the thread list (a run
// started or ended: its running state and order in the sidebar).
func ListChanges(env broker.Envelope) bool {
	if env.Name != broker.EnvelopeAGUI {
		return false
	}
	switch env.Event.EventType() {
	case agui.TypeRunStarted, agui.TypeRunFinished, agui.TypeRunError:
		return true
	}
	return false
}

// LogRuns logs how each run ended (the desktop smoke test reads it) until
// ctx ends; it owns sub.
func LogRuns(ctx context.Context, sub *broker.Subscription, log *slog.Logger) {
	defer sub.Close()
	var batch []broker.Envelope
	for {
		var err error
		batch, err = sub.NextBatch(ctx, batch)
		if err != nil {
			return
		}
		for _, env := range batch {
			if env.Name == broker.EnvelopeAGUI {
				logTerminal(log, env)
			}
		}
	}
}

// logTerminal logs one terminal event.
func logTerminal(log *slog.Logger, env broker.Envelope) {
	switch e := env.Event.(type) {
	case *agui.RunFinished:
		out := agui.OutcomeSuccess
		if e.Outcome != nil {
			out = e.Outcome.Type
		}
		log.Info("run finished", "thread", env.ThreadID, "run", e.RunID, "outcome", out)
	case *agui.RunError:
		log.Warn("run failed", "thread", env.ThreadID, "code", e.Code, "message", e.Message)
	}
}
