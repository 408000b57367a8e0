package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
)

// ToolStatesOf gives each tool call of msgs its UI state: the state the
// runtime stored with the call's result, a call without a result is
// running (while a run owns the thread) or was interrupted. Rows written
// before states were stored (or by crash recovery) are read from their
// result text.
func ToolStatesOf(msgs []history.Message, running bool) map[string]contract.ToolState {
	states := map[string]contract.ToolState{}
	for _, m := range msgs {
		switch m.Role {
		case history.RoleAssistant:
			for _, c := range m.ToolCalls {
				if running {
					states[c.ID] = contract.ToolRunning
				} else {
					states[c.ID] = contract.ToolInterrupted
				}
			}
		case history.RoleTool:
			states[m.ToolCallID] = storedState(m)
		}
	}
	return states
}

func storedState(m history.Message) contract.ToolState {
	if m.ToolState != "" {
		return contract.ToolState(m.ToolState)
	}
	switch {
	case m.Content == history.ResultInterrupted:
		return contract.ToolInterrupted
	case strings.HasPrefix(m.Content, history.ResultInterruptedMidRun), strings.HasPrefix(m.Content, history.ResultAppStoppedMidRun):
		return contract.ToolInterruptedMidRn
	case strings.HasPrefix(m.Content, ResultDenied):
		return contract.ToolDenied
	case m.IsError:
		return contract.ToolFailed
	}
	return contract.ToolDone
}

// ThreadState is what a thread is doing now, as the window shows it: the
// run that owns it, the input queued behind, what waits on the person or
// the window, each tool call's state, and the waiting items that already
// have a kept answer.
type ThreadState struct {
	Running     bool
	RunID       string
	Queued      []string
	Items       []PendingItem // every pending interrupt, unbound ones included
	ClientTools []history.ClientToolCall
	ToolStates  map[string]contract.ToolState
	Answered    []string // interrupt ids and client tool call ids
	// EditedArgs are the arguments calls ran with after the person edited
	// them, by call id.
	EditedArgs map[string]string
}

// State returns the thread's live state over its stored messages msgs.
// The runtime decides every tool state: stored ones, then what waits
// (awaiting approval or an answer, pending in the window); a call without
// a result while the run is paused has not run yet (it runs in the
// continuation), so it has no state rather than "interrupted".
func (rt *Runtime) State(ctx context.Context, threadID string, msgs []history.Message) (ThreadState, error) {
	running, runID := rt.Running(threadID)
	s := ThreadState{Running: running, RunID: runID, Queued: rt.Queued(threadID), ToolStates: ToolStatesOf(msgs, running), Answered: []string{}, EditedArgs: EditedArgsOf(msgs)}
	var err error
	if s.Items, err = rt.PendingItems(ctx, threadID); err != nil {
		return ThreadState{}, err
	}
	if s.ClientTools, err = rt.PendingClientTools(ctx, threadID); err != nil {
		return ThreadState{}, err
	}
	if !running && (len(s.Items) > 0 || len(s.ClientTools) > 0) {
		answered := answeredCalls(msgs)
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				if !answered[c.ID] {
					delete(s.ToolStates, c.ID)
				}
			}
		}
	}
	for _, it := range s.Items {
		if it.Interrupt.ToolCallID == "" {
			continue
		}
		switch it.Kind {
		case string(interrupt.ClassToolApproval):
			s.ToolStates[it.Interrupt.ToolCallID] = contract.ToolAwaitingApproval
		case string(interrupt.ClassGeneric):
			s.ToolStates[it.Interrupt.ToolCallID] = contract.ToolAwaitingAnswer
		}
	}
	for _, c := range s.ClientTools {
		s.ToolStates[c.ToolCallID] = contract.ToolPendingClient
	}
	staged, err := rt.st.StagedAnswers(ctx, threadID)
	if err != nil {
		return ThreadState{}, fmt.Errorf("loading the answers given so far: %w", err)
	}
	for _, a := range staged {
		s.Answered = append(s.Answered, a.ItemID)
	}
	return s, nil
}
