package history

import (
	"fmt"
	"time"
)

// Rule effects.
const (
	EffectAllow = "allow"
	EffectDeny  = "deny"
)

// Rule durations: how long an "Always allow" lasts.
const (
	DurationTurn    = "turn"    // until this turn ends (the chat's next message)
	Duration15m     = "15m"     // fifteen minutes
	Duration1h      = "1h"      // one hour
	DurationToday   = "today"   // until local midnight
	DurationChat    = "chat"    // for this chat, until revoked
	DurationForever = "forever" // until revoked
)

// Durations lists the durations, shortest first.
var Durations = []string{DurationTurn, Duration15m, Duration1h, DurationToday, DurationChat, DurationForever}

// IsDeny reports whether the rule refuses the calls it covers.
func (r PermissionRule) IsDeny() bool { return r.Effect == EffectDeny }

// ExpiresFor is the end of a rule of duration d made at now (0: no end
// in time; a "turn" or "chat" rule ends with its turn or chat instead).
// An unknown duration is an error, never "forever".
func ExpiresFor(d string, now time.Time) (int64, error) {
	switch d {
	case "", DurationForever, DurationChat, DurationTurn:
		return 0, nil
	case Duration15m:
		return now.Add(15 * time.Minute).UnixMilli(), nil
	case Duration1h:
		return now.Add(time.Hour).UnixMilli(), nil
	case DurationToday:
		y, m, day := now.Date()
		return time.Date(y, m, day+1, 0, 0, 0, 0, now.Location()).UnixMilli(), nil
	}
	return 0, fmt.Errorf("unknown rule duration %q", d)
}

// InForce reports whether the rule may decide a call at now (Unix ms) in
// thread threadID and turn turnID: it has not reached its end, and a
// rule bound to a chat or a turn is in that chat and turn.
func (r PermissionRule) InForce(now int64, threadID, turnID string) bool {
	if r.ExpiresAt != 0 && now >= r.ExpiresAt {
		return false
	}
	if r.ThreadID != "" && r.ThreadID != threadID {
		return false
	}
	if r.TurnID != "" && r.TurnID != turnID {
		return false
	}
	return true
}

// Ended reports whether the rule can never decide a call again at now in
// thread threadID, whose current turn is turnID: past its end, or a
// "this turn" rule of the chat whose turn is over.
func (r PermissionRule) Ended(now int64, threadID, turnID string) bool {
	if r.ExpiresAt != 0 && now >= r.ExpiresAt {
		return true
	}
	return r.TurnID != "" && r.ThreadID == threadID && turnID != "" && r.TurnID != turnID
}

// RuleQuery is one call a rule may decide: when (Now, Unix ms, the
// runtime's clock), in which chat, turn and run, and what the ledger
// records if a rule decides it. DenyOnly: only deny rules are read (a
// call that needs no approval can still be refused).
type RuleQuery struct {
	Now       int64
	ThreadID  string
	TurnID    string
	RunID     string
	CallID    string
	Tool      string
	Server    string
	Arguments string
	DenyOnly  bool
}
