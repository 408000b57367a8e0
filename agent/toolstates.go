package agent

import (
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// ToolStatesOf gives each tool call of msgs its UI state: the state the
// runtime stored with the call's result, a call without a result is
// running (while a run owns the thread) or was interrupted. Rows written
// before states were stored (or by crash recovery) are read from their
// result text.
func ToolStatesOf(msgs []history.Message, running bool) map[string]ToolState {
	states := map[string]ToolState{}
	for _, m := range msgs {
		switch m.Role {
		case history.RoleAssistant:
			for _, c := range m.ToolCalls {
				if running {
					states[c.ID] = ToolRunning
				} else {
					states[c.ID] = ToolInterrupted
				}
			}
		case history.RoleTool:
			states[m.ToolCallID] = storedState(m)
		}
	}
	return states
}

func storedState(m history.Message) ToolState {
	if m.ToolState != "" {
		return ToolState(m.ToolState)
	}
	switch {
	case m.Content == history.ResultInterrupted:
		return ToolInterrupted
	case strings.HasPrefix(m.Content, history.ResultInterruptedMidRun), strings.HasPrefix(m.Content, history.ResultAppStoppedMidRun):
		return ToolInterruptedMidRn
	case strings.HasPrefix(m.Content, ResultDenied):
		return ToolDenied
	case m.IsError:
		return ToolFailed
	}
	return ToolDone
}
