package agent_test

import (
	"testing"

	"github.com/juncture-app/juncture/agent"
)

// TestRepliedInChatResultText pins the result of an approval passed over by
// a chat reply: the window badges a call with exactly this result "Skipped"
// (frontend/src/features/tools/ToolStatusChip.tsx, REPLIED_IN_CHAT).
func TestRepliedInChatResultText(t *testing.T) {
	const want = "Not run: the person replied in chat instead of answering the approval request."
	if agent.ResultRepliedInChat != want {
		t.Fatalf("ResultRepliedInChat = %q; update REPLIED_IN_CHAT in ToolStatusChip.tsx to match", agent.ResultRepliedInChat)
	}
}
