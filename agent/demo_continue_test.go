package agent_test

import (
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/fakellm"
)

// TestDemoKnowsTheContinueInstruction: the offline demo recognises the
// runtime's hidden Continue request by its text.
func TestDemoKnowsTheContinueInstruction(t *testing.T) {
	if fakellm.ContinueInstruction != agent.ContinueInstruction {
		t.Fatalf("fakellm.ContinueInstruction = %q, agent.ContinueInstruction = %q", fakellm.ContinueInstruction, agent.ContinueInstruction)
	}
}
