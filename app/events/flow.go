package events

import (
	"context"
	"time"

	"github.com/juncture-app/juncture/agent/broker"
)

// maxPageLag is how long the forwarder waits for the window to take in
// its last event before it sends the next batch of deltas anyway: a page
// that does not answer (reloading, hidden, so without animation frames,
// or from an older build) still sees the stream four times a second.
const maxPageLag = 250 * time.Millisecond

// Flow paces the stream to what the window has taken in. Without it the
// forwarder sent a batch of deltas every 16 ms whatever the page made of
// them; a web process slower than that (a long answer's frame, a busy
// machine) queued the batches up, and everything after them waited its
// turn: a Stop's cancelled RUN_FINISHED arrived behind 80 ms (p50, quiet
// machine) to over a second (load 30) of deltas already sent, and no frame
// was painted until the page had worked through them (issue 26). With a
// Flow, at most one event the page has not acknowledged is on its way
// while only deltas stream: the deltas that come meanwhile stay in the
// broker, merged, and go out as one batch once the page says it took the
// last (Took) or maxPageLag passed. Anything else (a run's end, a tool
// call, an approval) goes out at once, as before.
//
// The window acknowledges after the frame that followed an event's
// arrival (frontend/src/transport/wails.ts): the ack means "rendered what
// you sent", so a page never has more than about one frame of stream
// waiting for it, and a slow page gets fewer, larger batches instead of a
// queue.
type Flow struct {
	took chan struct{}
	lag  time.Duration
}

// NewFlow returns a Flow for one window.
func NewFlow() *Flow { return &Flow{took: make(chan struct{}, 1), lag: maxPageLag} }

// Took records that the window took in what it was sent. Safe from any
// goroutine; it never blocks (acknowledgements are not counted, and any
// one of them releases the wait).
func (f *Flow) Took() {
	select {
	case f.took <- struct{}{}:
	default:
	}
}

// forget drops an acknowledgement that came before the event about to be
// sent: it answered an earlier one.
func (f *Flow) forget() {
	select {
	case <-f.took:
	default:
	}
}

// wait holds a batch of deltas until the window took the last event, a
// must-deliver envelope is queued, or the lag bound passes, and returns
// the batch with what queued meanwhile (merged by the broker).
func (f *Flow) wait(ctx context.Context, sub *broker.Subscription, batch []broker.Envelope, sent time.Time) []broker.Envelope {
	_ = sub.WaitMustOr(ctx, sent.Add(f.lag), f.took) // ctx's end: Forward's next read returns
	return sub.AppendQueued(batch)
}
