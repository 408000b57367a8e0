package broker

// What the replay ring keeps of an envelope, and what that costs against
// its byte budget (ringBytes): split from broker.go, which fans envelopes
// out.

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/agui"
)

// A snapshot's fixed share per message (agui.Message is 112 B, its
// content 16, plus size classes and JSON punctuation) and per tool call.
const (
	messageShare = 192
	callShare    = 96
)

// keptForm is what the ring keeps of env for a client that reconnects.
// A MESSAGES_SNAPSHOT (the whole thread, published when a turn pauses or
// the path changes) is kept as its JSON alone: replay only ever writes an
// event's JSON (app/web), and the typed messages cost about twice their
// JSON in structs and separate strings (TestBrokerKeepsSnapshotsByTheirJSON;
// the 500-turn soak's Go heap grew by the paused turns' snapshots the ring
// kept for two minutes).
// Live subscribers get env itself, typed, with the same JSON encoded once.
// Other events are kept as they were published: their long strings are
// shared with their JSON, and encoding every one eagerly would cost the
// desktop window, which sends typed events, a JSON encoding it never uses.
func keptForm(env *Envelope) *Envelope {
	if _, ok := env.Event.(*agui.MessagesSnapshot); !ok {
		env.size = approxSize(env)
		return env
	}
	raw := env.EventJSON()
	if raw == nil {
		env.size = approxSize(env)
		return env
	}
	kept := *env
	kept.Event = encodedEvent{typ: env.Event.EventType(), raw: raw}
	kept.size = approxSize(&kept)
	return &kept
}

// encodedEvent is an event the ring keeps by its JSON alone.
type encodedEvent struct {
	typ string
	raw json.RawMessage
}

func (e encodedEvent) EventType() string { return e.typ }

// MarshalJSON returns the event's JSON as it was published.
func (e encodedEvent) MarshalJSON() ([]byte, error) { return e.raw, nil }

// approxSize is about what env keeps alive: a fixed share for the
// envelope, its event and ids, and the event's long strings with their
// JSON (once encoded: a browser's stream encodes every envelope), counted
// at what escaping makes of them (textCost); an event of another kind is
// counted by its JSON, which subscribers then share.
func approxSize(env *Envelope) int {
	n := 512 // the envelope, its event and its encoded JSON, measured ~0.5–1.5 KiB
	for _, q := range env.Queued {
		n += len(q)
	}
	if _, d, ok := deltaOf(env.Event); ok {
		return n + textCost(d)
	}
	switch e := env.Event.(type) {
	case encodedEvent: // its JSON, shared with the published envelope's
		n += len(e.raw)
	case *agui.ToolCallResult:
		n += textCost(e.Content)
	case *agui.StateSnapshot:
		n += rawCost(e.Snapshot)
	case *agui.Custom:
		n += rawCost(e.Value)
	case *agui.MessagesSnapshot:
		// A long thread of short messages costs far more than its text:
		// measured ~190 B of structs and ids per message before its JSON
		// (TestBrokerReplayBudgetCountsSnapshotsOfShortMessages), so each
		// message and call has a fixed share and its strings count twice.
		for _, m := range e.Messages {
			n += messageShare + textCost(m.ID) + textCost(m.Role) + textCost(m.Name) + textCost(m.ToolCallID) + textCost(m.Error)
			if m.Content != nil {
				n += textCost(m.Content.Text)
			}
			for _, c := range m.ToolCalls {
				n += callShare + textCost(c.ID) + textCost(c.Type) + textCost(c.Function.Name) + textCost(c.Function.Arguments)
			}
		}
	default: // a run's end (its error, its interrupts' schemas), a call's start: rare, encoded once for every subscriber
		n += 2 * len(env.EventJSON())
	}
	return n
}

// textCost is what a string and its JSON hold: encoding/json writes "<",
// ">", "&", a control byte, a byte that is not UTF-8 and U+2028/U+2029 as
// six bytes each (\u003c, \ufffd, …), so the JSON of hostile text (a
// tool result read from a crafted file, a model's delta) is up to six
// times the text, not once (TestBrokerReplayBudgetCountsWhatEscapingCosts:
// counted as twice the text, the ring held 21 MiB under its 8 MiB).
func textCost(s string) int {
	n := len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// rawCost is what raw JSON (a state, a custom value) and the event's JSON
// hold: the encoder copies it, writing "<", ">", "&" and U+2028/U+2029 as
// six bytes each.
func rawCost(raw json.RawMessage) int {
	n := 2 * len(raw)
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '<', '>', '&':
			n += 5
		case 0xe2: // U+2028, U+2029: e2 80 a8, e2 80 a9
			if i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xa8 || raw[i+2] == 0xa9) {
				n += 3
			}
		}
	}
	return n
}
