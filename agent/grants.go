package agent

import (
	"context"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// Grants: a rule decides a call only in the store transaction that reads
// it (RuleStore.DecideByRule), just before the call would run, so a rule
// that ended meanwhile (its duration, its turn, a revoke) never lets a
// call through. The gate's earlier read only says which calls a rule may
// decide, and which wait for the person.

// ResultRefusedByRule starts the tool result of a call a deny rule
// refused; the rule's reason follows.
const ResultRefusedByRule = "Not run: a rule the person set refuses this call"

// gate returns the calls that wait for the person, by call id: their tool
// needs approval for these arguments and no rule in force covers them.
// Calls a rule may decide (an allow rule for a call that needs approval,
// a deny rule for any call) are noted in ruleCheck instead. Calls whose
// arguments are invalid are not gated (they fail when run).
func (tr *turn) gate(calls []history.ToolCall, decided map[string]decision) map[string]tools.Call {
	if tr.tools == nil {
		return nil
	}
	var gated map[string]tools.Call
	var rules []history.PermissionRule
	loaded := false
	for _, call := range calls {
		if _, ok := decided[call.ID]; ok {
			continue
		}
		c, bad := tr.prepare(call)
		if bad != nil {
			continue
		}
		needs := c.Tool.NeedsApproval != nil && c.Tool.NeedsApproval(c.Args)
		if !loaded {
			loaded = true
			var err error
			if rules, err = tr.rt.st.PermissionRules(tr.save); err != nil {
				tr.rt.log.Error("loading permission rules; asking for every call", "err", err)
			}
		}
		allowed, denied := tr.rulesCovering(c, rules)
		switch {
		case denied || needs && allowed:
			if tr.ruleCheck == nil {
				tr.ruleCheck = map[string]bool{}
			}
			tr.ruleCheck[call.ID] = true
		case needs:
			if gated == nil {
				gated = map[string]tools.Call{}
			}
			gated[call.ID] = c
		}
	}
	return gated
}

// rulesCovering reports whether an allow rule and a deny rule in force now
// cover the call (a first read; the decision is DecideByRule's).
func (tr *turn) rulesCovering(c tools.Call, rules []history.PermissionRule) (allowed, denied bool) {
	if len(rules) == 0 {
		return false, false
	}
	ws, now, tid, turn := tr.rt.workspace(), tr.rt.now(), tr.run.ThreadID, tr.turnID()
	for _, r := range rules {
		if !r.InForce(now, tid, turn) || !coversInThread(c.Tool, r, c.Args, ws, tid) {
			continue
		}
		if r.IsDeny() {
			denied = true
		} else {
			allowed = true
		}
	}
	return allowed, denied
}

// ruleVerdict is what decideByRule found.
type ruleVerdict int

const (
	ruleRuns    ruleVerdict = iota // a rule allows it, or no rule refuses a call that needs no approval
	ruleRefused                    // a deny rule refused it: its result is written
	ruleAsks                       // no rule decides a call that needs approval: it joins gated
)

// decideByRule decides a call the gate noted in ruleCheck, now, in the
// store's transaction. A refused call gets its result (the rule's reason,
// which the model reads); a call that needs approval and that no rule
// decides any more (the rule ended) is added to gated.
func (tr *turn) decideByRule(call history.ToolCall, gated *map[string]tools.Call) ruleVerdict {
	c, bad := tr.prepare(call)
	if bad != nil {
		return ruleRuns // it fails when run
	}
	needs := c.Tool.NeedsApproval != nil && c.Tool.NeedsApproval(c.Args)
	ws, tid := tr.rt.workspace(), tr.run.ThreadID
	q := history.RuleQuery{Now: tr.rt.now(), ThreadID: tid, TurnID: tr.turnID(), RunID: tr.run.ID, CallID: call.ID,
		Tool: call.Name, Server: c.Tool.Source, Arguments: string(c.Args), DenyOnly: !needs}
	rule, ok, err := tr.rt.st.DecideByRule(tr.save, q, func(r history.PermissionRule) bool {
		return coversInThread(c.Tool, r, c.Args, ws, tid)
	})
	if err != nil {
		tr.rt.log.Error("deciding a call by the rules; asking the person", "call", call.ID, "err", err)
		ok = false
	}
	switch {
	case ok && rule.IsDeny():
		text := ResultRefusedByRule + "."
		if rule.Reason != "" {
			text = ResultRefusedByRule + ": " + rule.Reason
		}
		tr.toolResult(call, tools.Result{Content: text, IsError: true}, contract.ToolDenied)
		return ruleRefused
	case ok:
		if tr.allowedBy == nil {
			tr.allowedBy = map[string]history.PermissionRule{}
		}
		tr.allowedBy[call.ID] = rule
		tr.noteLedgered(call.ID)
		return ruleRuns
	case needs:
		if *gated == nil {
			*gated = map[string]tools.Call{}
		}
		(*gated)[call.ID] = c
		return ruleAsks
	}
	return ruleRuns
}

// turnID names the turn for "this turn" rules: the person's message the
// turn answers (continuations of the turn share it).
func (tr *turn) turnID() string {
	if tr.turnKey == "" {
		tr.turnKey = tr.rt.turnOf(tr.save, tr.run.ThreadID)
	}
	return tr.turnKey
}

// turnOf is the id of the thread's last message of the person ("" if
// none, or if the thread cannot be read: a "this turn" rule then never
// applies).
func (rt *Runtime) turnOf(ctx context.Context, threadID string) string {
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		rt.log.Error("loading the thread for its turn", "thread", threadID, "err", err)
		return ""
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == history.RoleUser {
			return msgs[i].ID
		}
	}
	return ""
}
