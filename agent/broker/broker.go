// Package broker fans the runtime's event envelopes out to subscribers.
//
// Every envelope the runtime (and the facade, through Publish) sends
// reaches every subscriber of its thread, in order.
//
// Delivery classes:
//   - Token deltas (TEXT_MESSAGE_CONTENT, REASONING_MESSAGE_CONTENT,
//     TOOL_CALL_ARGS) are coalescable. While a subscriber is behind by more
//     than its coalescing depth, a delta that continues the last queued
//     delta of the same message (or call) is appended to it instead of
//     queued: the text arrives whole and in order, in fewer, larger
//     deltas. Coalescing only ever batches what is already queued, so a
//     subscriber that keeps up sees every delta as it was published.
//   - Everything else (starts, ends, tool results and states, snapshots,
//     RUN_FINISHED, RUN_ERROR, queue and facade events) must be delivered:
//     never dropped, never merged, never reordered.
//
// A stalled subscriber therefore holds at most its coalescing depth plus
// the must-deliver envelopes published meanwhile, never one entry per
// token. One that lets more than maxQueued must-deliver envelopes pile up
// is closed with ErrSlowSubscriber (browser mode then asks the page to
// reload what it shows); publishing never blocks on a subscriber.
//
// The broker keeps the last ringSize envelopes, at most ringBytes of them
// (large tool results would otherwise pile up over a day) and none older
// than ringAge, so a client that reconnects with the id of the last
// envelope it saw gets what it missed (SubscribeSince). It keeps them only
// while such a client could come back (SubscribeOptions.Resumable): the
// desktop window alone keeps nothing, neither the memory nor the work of
// preparing a snapshot for replay. Every envelope's JSON is encoded at most once, however
// many subscribers write it.
package broker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// Envelope names.
const (
	EnvelopeAGUI    = "agui"    // Event is set
	EnvelopeQueue   = "queue"   // Queued is set
	EnvelopeThreads = "threads" // the thread list changed (a title, a new thread)
	// EnvelopePath: a thread's active path changed outside a run (a branch
	// switch, new instructions); Data is a PathChangedEvent. AG-UI allows
	// no event outside a run, so this is not one.
	EnvelopePath = "path"
)

// ErrSlowSubscriber closes a subscription that fell too far behind.
var ErrSlowSubscriber = errors.New("broker: the subscriber fell too far behind and was closed")

// ErrClosed is what Next returns once a subscription was closed (by Close,
// or by CloseAll when the runtime shut down) and drained.
var ErrClosed = errors.New("broker: the subscription is closed")

const (
	// The ring is what a reconnecting client can catch up on; past it the
	// client reloads its snapshot, which is always correct. Its size is a
	// steady cost of the app's heap (the 500-turn soak saw the Go heap grow
	// 13 MiB while 8,192 small envelopes filled it), so it covers a few
	// seconds of the fastest stream (one envelope per token), not a day.
	ringSize  = 4096
	ringBytes = 8 << 20 // what the kept envelopes may hold (approxSize)
	// ringAge: older envelopes are forgotten as new ones are published. A
	// client that lost its stream reconnects within seconds; one away
	// longer reloads its snapshot. Without it, hours of slow turns (a few
	// envelopes each) filled the ring to its caps: the 500-turn soak's Go
	// heap grew from 3.5 to 13 MiB, most of the app's growth after turn 50.
	ringAge         = 2 * time.Minute
	maxQueued       = 1 << 16
	defaultCoalesce = 256
)

// Envelope is one thing a subscriber receives.
type Envelope struct {
	Seq      uint64 // position in the broker's stream (1, 2, …)
	Name     string
	ThreadID string
	Event    agui.Event // EnvelopeAGUI
	Queued   []string   // EnvelopeQueue
	Data     any        // facade events (Publish)
	// Offset is where a delta's text starts in its message, reasoning or
	// call arguments, in UTF-16 code units (agent/live.go); a coalesced delta
	// keeps its first part's offset.
	Offset int

	enc  *encoded // shared by the copies of one published envelope
	size int      // approxSize, while the ring keeps it
	at   time.Time
}

type encoded struct {
	once sync.Once
	b    []byte
}

// EventJSON returns the AG-UI event's JSON, encoded once per published
// envelope (nil when the envelope carries no event or it cannot be
// encoded).
func (e *Envelope) EventJSON() []byte {
	if e.Event == nil {
		return nil
	}
	if e.enc == nil {
		b, _ := json.Marshal(e.Event)
		return b
	}
	e.enc.once.Do(func() { e.enc.b, _ = json.Marshal(e.Event) })
	return e.enc.b
}

// SubscribeOptions tune one subscription.
type SubscribeOptions struct {
	// Coalesce is how many queued envelopes make the subscription merge
	// further deltas (0: the default, 256). A transport that renders
	// rather than records (a window, an SSE stream) uses 1: whatever is
	// queued when it reads is batched.
	Coalesce int
	// NoDeltas leaves token deltas out: the subscription gets only what
	// must be delivered (a log of how runs end), so a stream does not
	// wake it once per token.
	NoDeltas bool
	// Resumable: the subscriber may lose its connection and come back with
	// the id of the last envelope it saw (a browser's event stream). The
	// ring keeps envelopes only while such a subscriber is connected, for
	// ringAge after the last one left, and for ringAge after boot (a page
	// that lost the app to a restart); the desktop window, which reloads
	// what it shows instead, costs the ring nothing.
	Resumable bool
}

// Subscription receives the envelopes of one thread, or of every thread.
type Subscription struct {
	b         *Broker
	threadID  string // "" = all threads
	coalesce  int
	noDeltas  bool
	resumable bool

	mu     sync.Mutex
	q      []queued
	head   int
	wake   chan struct{}
	closed bool
	err    error // why it closed (ErrClosed or ErrSlowSubscriber)
	must   int   // must-deliver envelopes queued
	// quiet: a reader waits in WaitMust, so a delta is queued (and
	// coalesced) without waking it.
	quiet bool
}

type queued struct {
	env  *Envelope
	more []byte // deltas coalesced after env's own
	seq  uint64 // the newest coalesced delta's Seq (0: env's own)
}

// Broker fans envelopes out to subscribers.
type Broker struct {
	boot string

	mu   sync.Mutex
	seq  uint64
	ring [ringSize]*Envelope // ring[seq%ringSize], nil once dropped for the byte budget
	// first is the oldest envelope the ring keeps; held what the kept
	// ones hold (approxSize).
	first uint64
	held  int
	subs  map[*Subscription]struct{}
	now   func() time.Time // the clock of the ring's age (tests set it)

	// Whether anyone could resume (SubscribeOptions.Resumable): resumers
	// is how many such subscribers are connected, replayUntil until when
	// one that left (or a page of the last boot) may come back. retaining
	// is Publish's hint, read before b.mu, of whether to prepare an
	// envelope for the ring: set when a resumer subscribes, cleared by the
	// first Publish that finds nobody could resume (b.mu held for both).
	resumers    int
	replayUntil time.Time
	retaining   atomic.Bool
	// expiry runs expire once the replay window has closed: Publish alone
	// empties the ring only when something is published, and an idle app
	// would otherwise keep up to ringBytes for nobody (TestBrokerForgetsTheRingWhenIdle).
	expiry *time.Timer
}

// NewBroker returns a broker with a fresh boot id.
func NewBroker() *Broker { return newBroker(time.Now) }

// newBroker is NewBroker on the clock now (tests pass theirs): the ring's
// ages and the boot's replay window are both measured on it, so a test
// clock set after NewBroker cannot leave the window open for ever (a
// clock behind the wall's) or shut from the start (one ahead of it).
func newBroker(now func() time.Time) *Broker {
	var b [6]byte
	_, _ = rand.Read(b[:])
	br := &Broker{boot: hex.EncodeToString(b[:]), subs: make(map[*Subscription]struct{}), first: 1, now: now}
	br.replayUntil = now().Add(ringAge) // a page of the last boot reconnects to this one
	br.retaining.Store(true)
	br.expiry = time.AfterFunc(ringAge+time.Second, br.expire)
	return br
}

// EventID names an envelope for a client that may reconnect: "<boot>.<seq>".
func (b *Broker) EventID(e Envelope) string {
	return b.boot + "." + strconv.FormatUint(e.Seq, 10)
}

// Publish sends an envelope to the subscribers of its thread.
func (b *Broker) Publish(e Envelope) {
	env := &e
	env.enc = &encoded{}
	var kept *Envelope
	if b.retaining.Load() {
		kept = keptForm(env) // a snapshot's JSON: done before b.mu, it takes milliseconds
	}
	b.mu.Lock()
	env.at = b.now()
	b.seq++
	env.Seq = b.seq
	if b.replayWanted(env.at) {
		if kept == nil {
			// A resumer subscribed after the hint was read (rare: once
			// per page that connects while none was).
			kept = keptForm(env)
		}
		kept.at, kept.Seq = env.at, env.Seq
		b.keep(kept)
	} else {
		b.forget()
	}
	for s := range b.subs {
		if s.threadID == "" || s.threadID == env.ThreadID {
			s.push(env)
		}
	}
	b.mu.Unlock()
}

// LastSeq is the sequence number of the newest envelope published.
func (b *Broker) LastSeq() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seq
}

// Subscribe subscribes to one thread's envelopes ("" = all) from now on.
func (b *Broker) Subscribe(threadID string, o SubscribeOptions) *Subscription {
	s, _ := b.SubscribeSince(threadID, "", o)
	return s
}

// SubscribeSince subscribes from the envelope after lastID (as EventID
// gave it; "" = from now on). The missed envelopes are queued first. When
// they are no longer all kept, or lastID is not one of this broker's, the
// subscription starts from now and complete is false: the client must
// reload what it shows. An id of another boot (the app restarted) counts
// as "everything of this boot".
func (b *Broker) SubscribeSince(threadID, lastID string, o SubscribeOptions) (s *Subscription, complete bool) {
	if o.Coalesce <= 0 {
		o.Coalesce = defaultCoalesce
	}
	s = &Subscription{b: b, threadID: threadID, coalesce: o.Coalesce, noDeltas: o.NoDeltas, resumable: o.Resumable, wake: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.resumable {
		b.resumers++
		b.retaining.Store(true)
	}
	complete = true
	if lastID != "" {
		var from uint64
		from, complete = b.replayFrom(lastID)
		if complete {
			for seq := from; seq <= b.seq; seq++ {
				if env := b.ring[seq%ringSize]; env.ThreadID == threadID || threadID == "" {
					s.push(env)
				}
			}
		}
	}
	b.subs[s] = struct{}{}
	return s, complete
}

// replayFrom returns the first sequence number a client that saw lastID
// misses, and whether everything from there is still kept. b.mu is held.
func (b *Broker) replayFrom(lastID string) (uint64, bool) {
	boot, seqText, ok := strings.Cut(lastID, ".")
	seq, err := strconv.ParseUint(seqText, 10, 64)
	if !ok || err != nil {
		return 0, false
	}
	if boot != b.boot {
		seq = 0 // the app restarted: everything of this boot is new to the client
	}
	if seq > b.seq {
		return 0, false
	}
	if seq+1 < b.first {
		return 0, false
	}
	return seq + 1, true
}

// keep puts env in the ring, over the envelope ringSize before it, and
// drops the oldest ones while the ring holds more than ringBytes or they
// are older than ringAge (the newest is always kept). b.mu is held.
func (b *Broker) keep(env *Envelope) {
	slot := &b.ring[env.Seq%ringSize]
	if old := *slot; old != nil {
		b.held -= old.size
		b.first = old.Seq + 1
	}
	*slot = env
	b.held += env.size
	for b.first < env.Seq {
		p := &b.ring[b.first%ringSize]
		if b.held <= ringBytes && env.at.Sub((*p).at) <= ringAge {
			break
		}
		b.held -= (*p).size
		*p = nil
		b.first++
	}
}

// replayWanted reports whether a client could still resume at now: a
// resumer is connected, or one left (or the app booted) within ringAge.
// b.mu is held.
func (b *Broker) replayWanted(now time.Time) bool {
	return b.resumers > 0 || !now.After(b.replayUntil)
}

// forget empties the ring and tells Publish to stop preparing kept forms
// (until a resumer subscribes): nobody can resume from what it held, and a
// replay from before the newest envelope is incomplete. b.mu is held.
func (b *Broker) forget() {
	b.retaining.Store(false)
	for ; b.first <= b.seq; b.first++ {
		b.ring[b.first%ringSize] = nil
	}
	b.held = 0
}

func (b *Broker) remove(s *Subscription) {
	b.mu.Lock()
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		b.leftLocked(s)
	}
	b.mu.Unlock()
}

// leftLocked notes that s is gone: a resumer may come back within ringAge.
// b.mu is held.
func (b *Broker) leftLocked(s *Subscription) {
	if !s.resumable {
		return
	}
	b.resumers--
	if until := b.now().Add(ringAge); until.After(b.replayUntil) {
		b.replayUntil = until
	}
	if b.resumers == 0 {
		// A second past the window, so the timer (on the wall's clock)
		// does not fire just before it closes on b.now.
		b.expiry.Reset(ringAge + time.Second)
	}
}

// expire empties the ring when nobody can resume any more: run by b.expiry
// once the replay window closed with nothing published since.
func (b *Broker) expire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.replayWanted(b.now()) {
		b.forget()
	}
}

// CloseAll closes every subscription (the runtime shut down).
func (b *Broker) CloseAll() {
	b.mu.Lock()
	subs := b.subs
	b.subs = make(map[*Subscription]struct{})
	for s := range subs {
		b.leftLocked(s)
	}
	b.expiry.Stop() // the runtime is gone: nothing to expire for
	b.mu.Unlock()
	for s := range subs {
		s.close(ErrClosed)
	}
}

// IsDelta reports whether the envelope carries a delta (text, reasoning or
// call arguments), whose Offset says where it starts.
func (e *Envelope) IsDelta() bool {
	_, _, ok := deltaOf(e.Event)
	return ok
}

// streamKey names the text a delta continues: its kind and the id of its
// message or call (a comparable value: no allocation per delta).
type streamKey struct {
	kind byte
	id   string
}

// deltaOf returns the stream key and text of a coalescable event.
func deltaOf(ev agui.Event) (key streamKey, delta string, ok bool) {
	switch e := ev.(type) {
	case *agui.TextMessageContent:
		return streamKey{'t', e.MessageID}, e.Delta, true
	case *agui.ReasoningMessageContent:
		return streamKey{'r', e.MessageID}, e.Delta, true
	case *agui.ToolCallArgs:
		return streamKey{'a', e.ToolCallID}, e.Delta, true
	}
	return streamKey{}, "", false
}

// withDelta returns a copy of a coalescable event carrying delta.
func withDelta(ev agui.Event, delta string) agui.Event {
	switch e := ev.(type) {
	case *agui.TextMessageContent:
		c := *e
		c.Delta = delta
		return &c
	case *agui.ReasoningMessageContent:
		c := *e
		c.Delta = delta
		return &c
	case *agui.ToolCallArgs:
		c := *e
		c.Delta = delta
		return &c
	}
	return ev
}

// push queues env. The broker's lock is held, so envelopes are queued in
// publishing order.
func (s *Subscription) push(env *Envelope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	key, delta, isDelta := deltaOf(env.Event)
	if isDelta && s.noDeltas {
		return
	}
	if isDelta && len(s.q)-s.head >= s.coalesce {
		last := &s.q[len(s.q)-1]
		// The same thread too: call ids are the provider's, and a local
		// server numbering them per response gives two threads running at
		// once the same one (TestBrokerNeverMergesDeltasOfTwoThreads).
		if lkey, _, lok := deltaOf(last.env.Event); lok && lkey == key && last.env.ThreadID == env.ThreadID {
			last.more = append(last.more, delta...)
			// The merged delta stands for the newest one: a client that
			// reconnects after it has seen everything up to here.
			last.seq = env.Seq
			return
		}
	}
	if !isDelta {
		s.must++
		if s.must > maxQueued {
			s.closeLocked(ErrSlowSubscriber)
			return
		}
	}
	s.q = append(s.q, queued{env: env})
	if isDelta && s.quiet {
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take removes the oldest queued envelope; s.mu is held and one is queued.
func (s *Subscription) take() Envelope {
	it := s.q[s.head]
	s.q[s.head] = queued{}
	s.head++
	if s.head == len(s.q) {
		s.q, s.head = s.q[:0], 0
	} else if s.head > 1024 && s.head*2 > len(s.q) {
		s.q = append(s.q[:0], s.q[s.head:]...)
		s.head = 0
	}
	env := *it.env
	if _, _, ok := deltaOf(env.Event); !ok {
		s.must--
	}
	if it.seq != 0 {
		env.Seq = it.seq
	}
	if len(it.more) > 0 {
		_, delta, _ := deltaOf(env.Event)
		env.Event = withDelta(env.Event, delta+string(it.more))
		env.enc = nil // encoded on demand: no other subscriber shares it
	}
	return env
}

// Next blocks for the next envelope. It returns ctx's error, or the reason
// the subscription closed (ErrClosed, ErrSlowSubscriber) once drained.
func (s *Subscription) Next(ctx context.Context) (Envelope, error) {
	for {
		s.mu.Lock()
		if s.head < len(s.q) {
			e := s.take()
			s.mu.Unlock()
			return e, nil
		}
		if s.closed {
			err := s.err
			s.mu.Unlock()
			return Envelope{}, err
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return Envelope{}, ctx.Err()
		}
	}
}

// NextBatch blocks like Next, then returns everything queued at that
// moment (appended to buf[:0]), so a writer can frame them all and flush
// once.
func (s *Subscription) NextBatch(ctx context.Context, buf []Envelope) ([]Envelope, error) {
	first, err := s.Next(ctx)
	if err != nil {
		return buf[:0], err
	}
	buf = append(buf[:0], first)
	if s.coalesce <= 1 {
		// A delta published after Next took first could not merge into it
		// (push merges into the last queued one): merged here, as it would
		// have been had it come a moment earlier, so a batch never holds
		// two deltas in a row of one message (the desktop window is sent
		// one string per message per event).
		return s.AppendQueued(buf), nil
	}
	s.mu.Lock()
	for s.head < len(s.q) {
		buf = append(buf, s.take())
	}
	s.mu.Unlock()
	return buf, nil
}

// AppendQueued appends everything queued right now to buf, without
// waiting. A delta that continues buf's last envelope (the same message,
// reasoning or call) is merged into it, as the queue merges deltas: one
// delta whose offset is its first part's and whose Seq is the newest's.
func (s *Subscription) AppendQueued(buf []Envelope) []Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.head < len(s.q) {
		env := s.take()
		if n := len(buf); n > 0 {
			if merged, ok := mergeDelta(buf[n-1], env); ok {
				buf[n-1] = merged
				continue
			}
		}
		buf = append(buf, env)
	}
	return buf
}

// mergeDelta returns a followed by b as one delta, when b continues a
// (both deltas of the same message, reasoning or call).
func mergeDelta(a, b Envelope) (Envelope, bool) {
	if a.ThreadID != b.ThreadID {
		return a, false
	}
	ka, da, ok := deltaOf(a.Event)
	if !ok {
		return a, false
	}
	kb, db, ok := deltaOf(b.Event)
	if !ok || ka != kb {
		return a, false
	}
	a.Event = withDelta(a.Event, da+db)
	a.Seq = b.Seq
	a.enc = nil // encoded on demand: no other subscriber shares it
	return a, true
}

// WaitMust waits until a must-deliver envelope is queued (or the
// subscription closed), until passes, or ctx ends, whichever comes first;
// it returns ctx's error in the last case. Deltas published meanwhile are
// queued and coalesced without waking it: a reader that paces deltas
// (the desktop window, one event per few milliseconds) sleeps through
// them instead of waking once per token, and is still woken at once by
// anything else.
func (s *Subscription) WaitMust(ctx context.Context, until time.Time) error {
	return s.WaitMustOr(ctx, until, nil)
}

// WaitMustOr is WaitMust that also returns once or receives a value (nil:
// never): the desktop forwarder waits for the window to say it took the
// last batch in.
func (s *Subscription) WaitMustOr(ctx context.Context, until time.Time, or <-chan struct{}) error {
	d := time.Until(until)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	defer func() {
		s.mu.Lock()
		s.quiet = false
		s.mu.Unlock()
	}()
	for {
		s.mu.Lock()
		if s.must > 0 || s.closed {
			s.mu.Unlock()
			return nil
		}
		s.quiet = true
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-wake: // a delta queued before quiet, or a must-deliver one
		case <-t.C:
			return nil
		case <-or:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close ends the subscription; Next then returns ErrClosed.
func (s *Subscription) Close() {
	s.b.remove(s)
	s.close(ErrClosed)
}

func (s *Subscription) close(err error) {
	s.mu.Lock()
	s.closeLocked(err)
	s.mu.Unlock()
}

func (s *Subscription) closeLocked(err error) {
	if !s.closed {
		s.closed, s.err = true, err
		close(s.wake)
	}
}
