package agent

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

// Descriptor metadata keys Juncture adds to a tool approval.
const (
	MetaPreview        = "juncture:preview"        // tools.Preview of the call (or {"error": …})
	MetaSuggestedRules = "juncture:suggestedRules" // []history.PermissionRule "Always allow" can offer
)

// Tool results the runtime writes for calls that were never approved.
const (
	ResultRepliedInChat = "Not run: the person replied in chat instead of answering the approval request."
	ResultDenied        = "Not run: the person declined this tool call."
)

type gatedCall struct {
	call     history.ToolCall
	prepared tools.Call
}

// ApprovalTool is how a tool is described to the interrupt model: its
// input schema, and a reject branch that may carry a free-text reason.
func ApprovalTool(t tools.Tool) interrupt.Tool {
	return interrupt.Tool{
		Name: t.Name, InputSchema: t.Schema, NeedsApproval: t.NeedsApproval != nil,
		ApprovalSchema: interrupt.ApprovalSchema{Reject: interrupt.DenialReasonSchema},
	}
}

func (rt *Runtime) workspace() tools.Workspace {
	if rt.opts.Workspace == nil {
		return tools.Workspace{}
	}
	return rt.opts.Workspace()
}

// "This chat" rules (history.ScopeThread) name a thread, which only the
// runtime knows: coversInThread and suggestInThread are tools.Covers and
// tools.Suggest with them added, in one place.

// coversInThread is tools.Covers plus "this chat" rules.
func coversInThread(t tools.Tool, r history.PermissionRule, args json.RawMessage, ws tools.Workspace, threadID string) bool {
	if r.Scope == history.ScopeThread {
		return t.Rules == nil && r.Tool == t.Name && r.Pattern == threadID
	}
	return tools.Covers(t, r, args, ws)
}

// suggestInThread is tools.Suggest plus "this chat", before the whole tool
// (the widest, last), for tools without rules of their own. Never nil.
func suggestInThread(t tools.Tool, args json.RawMessage, ws tools.Workspace, threadID string) []history.PermissionRule {
	rules := tools.Suggest(t, args, ws)
	if t.Rules != nil || len(rules) == 0 {
		return append([]history.PermissionRule{}, rules...)
	}
	thread := history.PermissionRule{Tool: t.Name, Scope: history.ScopeThread, Pattern: threadID}
	return append(rules[:len(rules)-1:len(rules)-1], thread, rules[len(rules)-1])
}

// approvalDescriptors builds the approval request of each waiting call,
// with the card's preview and the "Always allow" rules it can offer.
func (tr *turn) approvalDescriptors(waiting []gatedCall) ([]interrupt.Descriptor, error) {
	ws := tr.rt.workspace()
	descs := make([]interrupt.Descriptor, 0, len(waiting))
	for _, w := range waiting {
		d, err := interrupt.NewToolApproval(interrupt.ToolCall{ID: w.call.ID, Name: w.call.Name, Arguments: w.call.Arguments}, ApprovalTool(w.prepared.Tool), "")
		if err != nil {
			return nil, err
		}
		var pv any
		if p, err := tr.tools.Preview(tr.save, w.prepared); err != nil {
			pv = map[string]string{"error": err.Error()}
		} else {
			m := map[string]string{"kind": p.Kind, "title": p.Title, "body": p.Body, "folder": p.Folder}
			if p.Sandbox != "" {
				m["sandbox"] = p.Sandbox // what the call's program can write and reach (agent/sandbox)
			}
			pv = m
		}
		rules := suggestInThread(w.prepared.Tool, w.prepared.Args, ws, tr.run.ThreadID)
		pvJSON, err1 := json.Marshal(pv)
		rulesJSON, err2 := json.Marshal(rules)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("describing the approval of %s: %w", w.call.Name, err)
		}
		d.Metadata[MetaPreview] = pvJSON
		d.Metadata[MetaSuggestedRules] = rulesJSON
		descs = append(descs, d)
	}
	return descs, nil
}
