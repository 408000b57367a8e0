package agent

// Branches: a thread is a tree of messages (see store and history.Branch).
// The runtime only ever works on the active path: the model reads it, new
// messages go at its end, and what waits (approvals, questions, client
// calls, a parked call) belongs to it. So the path may change only when
// nothing runs and nothing waits on it:
//
//   - SelectBranch is refused while a turn runs (ErrBusy) and while
//     anything waits on the person or the window (ErrBranchWaits): the
//     person answers or dismisses it first, and nothing is lost.
//   - EditMessage and Regenerate are new input: they are refused while a
//     turn runs (ErrBusy), and, like a message sent while approvals wait,
//     they settle what waits as "replied in chat" on the branch it belongs
//     to before the new branch starts.
//
// A branch change is announced, so every window showing the thread reloads
// it: inside the run an edit or a regenerate starts, with the AG-UI
// MESSAGES_SNAPSHOT of the new path and the custom event
// juncture.path_changed; outside a run (a switch, new instructions), where
// AG-UI allows no event, with the envelope EnvelopePath ("path" in the
// window), carrying the same PathChangedEvent.
//
// Instructions are versioned the same way: SetInstructions stores a system
// message at the end of the active path, and the model reads the last one
// on its path (history.Instructions), so a branch made before keeps the
// instructions it ran with.

import (
	"context"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
)

// Errors of branch operations.
var (
	ErrBranchWaits    = errors.New("agent: something waits for you on this branch: answer or dismiss it before switching to another version")
	ErrNotEditable    = errors.New("agent: only your own messages can be edited")
	ErrNotRegenerable = errors.New("agent: only an answer can be regenerated")
)

// BranchStore is the tree behind the active path (store.DB implements it).
type BranchStore interface {
	// AllMessages returns every message of the thread on every branch.
	AllMessages(ctx context.Context, threadID string) ([]history.Message, error)
	// ToolCallIDs returns every tool call id of the thread, on every
	// branch (read before each model call: ids only, no message decoded).
	ToolCallIDs(ctx context.Context, threadID string) (map[string]bool, error)
	// PathTo returns the path from a first message to messageID.
	PathTo(ctx context.Context, threadID, messageID string) ([]history.Message, error)
	// SetActiveLeaf ends the active path at messageID ("" for empty).
	SetActiveLeaf(ctx context.Context, threadID, messageID string) error
	// SelectBranch makes the path through messageID active, down to the
	// message of that branch last active, and returns that leaf.
	SelectBranch(ctx context.Context, threadID, messageID string) (string, error)
}

// SelectBranch makes the path through messageID the thread's active one
// (see the package notes for when it is refused).
func (rt *Runtime) SelectBranch(ctx context.Context, threadID, messageID string) error {
	if err := rt.waitSettled(ctx, threadID); err != nil {
		return err
	}
	// Held across the check and the switch, so no turn starts in between.
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if t := rt.threads[threadID]; t != nil && t.running {
		return ErrBusy
	}
	if rt.hasWaiting(ctx, threadID) {
		return ErrBranchWaits
	}
	leaf, err := rt.st.SelectBranch(ctx, threadID, messageID)
	if err != nil {
		return fmt.Errorf("switching to the version of message %s: %w", messageID, err)
	}
	rt.events.Publish(broker.Envelope{Name: broker.EnvelopePath, ThreadID: threadID, Data: contract.PathChangedEvent{ThreadID: threadID, LeafID: leaf, Reason: contract.PathBranch}})
	return nil
}

// EditMessage sends text as a new version of the person's message
// messageID: a sibling of it, after the same messages, and the model
// answers from there (the old version and what followed it stay on their
// branch). It returns the run id.
func (rt *Runtime) EditMessage(ctx context.Context, threadID, messageID, text string) (string, error) {
	if text == "" {
		return "", ErrEmptyInput
	}
	path, err := rt.st.PathTo(ctx, threadID, messageID)
	if err != nil {
		return "", fmt.Errorf("editing message %s: %w", messageID, err)
	}
	if path[len(path)-1].Role != history.RoleUser {
		return "", ErrNotEditable
	}
	at := path[len(path)-1].ParentID
	return rt.startBranch(ctx, Input{ThreadID: threadID, Text: text, branchAt: &at, branchWhy: contract.PathEdit})
}

// Regenerate asks the model for a new answer to the question that
// messageID (any answer of that turn) answered: a sibling of the turn's
// first answer; no message of the person is added. It returns the run id.
func (rt *Runtime) Regenerate(ctx context.Context, threadID, messageID string) (string, error) {
	path, err := rt.st.PathTo(ctx, threadID, messageID)
	if err != nil {
		return "", fmt.Errorf("regenerating message %s: %w", messageID, err)
	}
	if path[len(path)-1].Role != history.RoleAssistant {
		return "", ErrNotRegenerable
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Role != history.RoleUser {
			continue
		}
		// The new answer is a sibling of the turn's first answer: after the
		// question and whatever came between (instructions saved then).
		at := path[i].ID
		for _, m := range path[i+1:] {
			if m.Role == history.RoleAssistant {
				at = m.ParentID
				break
			}
		}
		return rt.startBranch(ctx, Input{ThreadID: threadID, branchAt: &at, branchWhy: contract.PathRegenerate})
	}
	return "", fmt.Errorf("%w: no question of yours comes before it", ErrNotRegenerable)
}

// startBranch starts a turn that first moves the active leaf, only if the
// thread is idle.
func (rt *Runtime) startBranch(ctx context.Context, in Input) (string, error) {
	in.RunID = NewID("run")
	if err := rt.StartExclusive(ctx, in); err != nil {
		return "", err
	}
	return in.RunID, nil
}

// moveToBranch is the start of an edit or a regenerate, once what waited
// on the old branch is settled: the active path ends at the branch point,
// and clients are told.
func (tr *turn) moveToBranch(at, why string) ending {
	rt, tid := tr.rt, tr.run.ThreadID
	if err := rt.st.SetActiveLeaf(tr.save, tid, at); err != nil {
		return tr.fail(fmt.Errorf("starting a new version: %w", err), "")
	}
	path, err := rt.st.Messages(tr.save, tid)
	if err != nil {
		return tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	rt.emit(tid, agui.NewMessagesSnapshot(agui.FromHistory(path)))
	rt.emit(tid, agui.NewCustom(contract.CustomPathChanged, contract.PathChangedEvent{ThreadID: tid, LeafID: at, Reason: why}))
	return endSuccess
}

// SetInstructions gives the thread new instructions from its next model
// call on: a system message at the end of the active path, unless the
// path's instructions already read so. Earlier branches keep theirs.
func (rt *Runtime) SetInstructions(ctx context.Context, threadID, text string) error {
	path, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		return fmt.Errorf("setting the instructions: %w", err)
	}
	if cur, _ := history.Instructions(path); cur == text {
		return nil
	}
	m := history.Message{ID: NewID("msg"), ThreadID: threadID, Role: history.RoleSystem, Content: text, Status: history.StatusComplete, CreatedAt: rt.now()}
	if err := rt.st.PutMessage(ctx, m); err != nil {
		return fmt.Errorf("setting the instructions: %w", err)
	}
	rt.events.Publish(broker.Envelope{Name: broker.EnvelopePath, ThreadID: threadID, Data: contract.PathChangedEvent{ThreadID: threadID, LeafID: m.ID, Reason: contract.PathInstructions}})
	return nil
}

// withoutInstructions returns the path without its system messages (the
// model reads the instructions first, in the system prompt) and the
// instructions.
func withoutInstructions(path []history.Message) ([]history.Message, string) {
	instr, _ := history.Instructions(path)
	out := make([]history.Message, 0, len(path))
	for _, m := range path {
		if m.Role != history.RoleSystem {
			out = append(out, m)
		}
	}
	return out, instr
}

// systemPrompt is the first system message of a model call: what Juncture
// says about its tools, then the thread's instructions.
func systemPrompt(base, instructions string) string {
	switch {
	case instructions == "":
		return base
	case base == "":
		return instructions
	}
	return base + "\n\n" + instructions
}
