package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

// The decision ledger (store/ledger.go keeps the chain). What the person
// decides is recorded in the transaction that settles the batch (Settle);
// what a rule decides, in the transaction that reads the rule
// (DecideByRule); what an approved call then did, when its result is
// written.

// ledgerOf is what a settled batch records: approvals (with the edit as a
// diff), denials with their reason, answers to questions (secrets
// redacted), the window's results of its tools.
func (rt *Runtime) ledgerOf(ctx context.Context, threadID, runID string, w *waiting, ds []decision) []history.LedgerEntry {
	now := rt.now()
	schemas := map[string]json.RawMessage{} // an ask_user call's answer schema, by call id
	for _, it := range w.interrupts {
		var d interrupt.Descriptor
		if it.ToolCallID != "" && json.Unmarshal(it.Descriptor, &d) == nil {
			schemas[it.ToolCallID] = d.ResponseSchema
		}
	}
	clients := map[string]bool{}
	for _, c := range w.clients {
		clients[c.ToolCallID] = true
	}
	var originals map[string]history.ToolCall
	var out []history.LedgerEntry
	for _, d := range ds {
		e := history.LedgerEntry{At: now, ThreadID: threadID, RunID: runID, CallID: d.call.ID, Tool: d.call.Name}
		switch {
		case d.hookDef != "":
			e.Kind, e.Tool = history.LedgerAnswered, d.hookDef
			e.Arguments = string(history.RedactSecrets(d.answer, nil))
		case d.midCall:
			midCallEntry(&e, d, schemas[d.call.ID])
		case clients[d.call.ID]:
			e.Kind, e.Arguments, e.Outcome = history.LedgerClientAction, ledgerArgs(d.call.Arguments), string(d.state)
		case d.approved && d.edited:
			if originals == nil {
				originals = rt.callsOf(ctx, threadID)
			}
			e.Kind, e.Arguments = history.LedgerApprovedEdited, ledgerArgs(d.call.Arguments)
			e.Diff = tools.UnifiedDiff("asked", "approved", indentJSON(ledgerArgs(originals[d.call.ID].Arguments)), indentJSON(e.Arguments))
		case d.approved:
			e.Kind, e.Arguments = history.LedgerApproved, ledgerArgs(d.call.Arguments)
		case d.answer != nil:
			e.Kind = history.LedgerAnswered
			e.Arguments = string(history.RedactSecrets(d.answer, schemas[d.call.ID]))
		case d.state == contract.ToolDenied:
			e.Kind, e.Arguments, e.Reason = history.LedgerDenied, ledgerArgs(d.call.Arguments), d.result
		default:
			e.Kind, e.Arguments, e.Reason = history.LedgerStopped, ledgerArgs(d.call.Arguments), d.result
		}
		if IsViewCall(d.call.ID) {
			e.Reason = strings.TrimSuffix(ViewCallReason+"; "+e.Reason, "; ")
		}
		out = append(out, e)
	}
	return out
}

func (rt *Runtime) callsOf(ctx context.Context, threadID string) map[string]history.ToolCall {
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		rt.log.Error("loading the thread for the ledger", "thread", threadID, "err", err)
		return map[string]history.ToolCall{}
	}
	calls, _ := callsByID(msgs)
	return calls
}

func indentJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// noteLedgered marks a call whose decision is in the ledger: its outcome
// is recorded too.
func (tr *turn) noteLedgered(callID string) {
	if tr.ledgered == nil {
		tr.ledgered = map[string]bool{}
	}
	tr.ledgered[callID] = true
}

// recordOutcome appends what a decided call did (ran, failed, was
// interrupted) once its result is written.
func (tr *turn) recordOutcome(call history.ToolCall, state contract.ToolState) {
	if !tr.ledgered[call.ID] {
		return
	}
	delete(tr.ledgered, call.ID)
	outcome := "ran"
	switch state {
	case contract.ToolDone:
	case contract.ToolInterrupted, contract.ToolInterruptedMidRun:
		outcome = "interrupted"
	default:
		outcome = string(state)
	}
	e := history.LedgerEntry{At: tr.rt.now(), Kind: history.LedgerOutcome, ThreadID: tr.run.ThreadID, RunID: tr.run.ID,
		CallID: call.ID, Tool: call.Name, Transport: history.TransportRuntime, Outcome: outcome}
	if IsViewCall(call.ID) {
		e.Reason = ViewCallReason
	}
	if err := tr.rt.st.AppendLedger(tr.save, e); err != nil {
		tr.rt.log.Error("recording a call's outcome in the ledger", "call", call.ID, "err", err)
	}
}

// stoppedLedger records the items a Stop (or a message sent instead of
// answering) left unanswered.
// An item bound to a call is recorded under the call's tool and
// arguments; one that is not (a middleware question), under its kind.
func (rt *Runtime) stoppedLedger(ctx context.Context, threadID, runID, text, via string, its []history.Interrupt, clients []history.ClientToolCall) []history.LedgerEntry {
	now := rt.now()
	var out []history.LedgerEntry
	var calls map[string]history.ToolCall
	for _, it := range its {
		e := history.LedgerEntry{At: now, Kind: history.LedgerStopped, ThreadID: threadID, RunID: runID,
			CallID: it.ToolCallID, Tool: it.Kind, Reason: text, Transport: via}
		if it.ToolCallID != "" {
			if calls == nil {
				calls = rt.callsOf(ctx, threadID)
			}
			if c, ok := calls[it.ToolCallID]; ok {
				e.Tool, e.Arguments = c.Name, ledgerArgs(c.Arguments)
			}
		}
		out = append(out, e)
	}
	for _, c := range clients {
		out = append(out, history.LedgerEntry{At: now, Kind: history.LedgerStopped, ThreadID: threadID, RunID: runID,
			CallID: c.ToolCallID, Tool: c.ToolName, Arguments: ledgerArgs(c.Arguments), Reason: text, Transport: via})
	}
	return out
}

// ledgerArgs is a call's arguments as the ledger keeps them: values under
// a secret-looking field name (password, api_key, token …) redacted as
// answers are; arguments without one keep their exact text.
func ledgerArgs(args string) string {
	if args == "" {
		return ""
	}
	red := history.RedactSecrets(json.RawMessage(args), nil)
	var before, after any
	if json.Unmarshal([]byte(args), &before) == nil && json.Unmarshal(red, &after) == nil && reflect.DeepEqual(before, after) {
		return args
	}
	return string(red)
}

// midCallEntry records the answer to what a running call asked: an MCP
// server's sampling request (approved or declined, and why), its URL
// confirmation (the page; opened or declined), or its question (the
// answer, secrets redacted). Server is who asked.
func midCallEntry(e *history.LedgerEntry, d decision, schema json.RawMessage) {
	e.Server = d.prompt.Source
	e.Outcome = map[string]string{tools.ReplyAccept: "approved", tools.ReplyDecline: "declined", tools.ReplyCancel: "dismissed"}[d.reply.Action]
	about := map[string]string{}
	if d.prompt.Message != "" {
		about["message"] = d.prompt.Message
	}
	switch d.prompt.Kind {
	case tools.PromptSampling:
		e.Kind, e.Reason = history.LedgerSampling, d.reply.Reason
	case tools.PromptURL:
		e.Kind = history.LedgerURLConfirm
		about["url"] = d.prompt.URL
	default:
		e.Kind, e.Reason = history.LedgerAnswered, "a question the running call asked"
		if e.Outcome == "approved" {
			e.Outcome = "answered"
		}
		if len(d.reply.Content) > 0 {
			e.Arguments = string(history.RedactSecrets(d.reply.Content, schema))
			return
		}
	}
	if len(about) > 0 {
		b, _ := json.Marshal(about) // strings only: never fails
		e.Arguments = ledgerArgs(string(b))
	}
}
