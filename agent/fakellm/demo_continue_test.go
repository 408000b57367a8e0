package fakellm

import (
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
)

// continueInstruction: the demo's copy of agent.ContinueInstruction (fakellm
// cannot import agent); TestDemoKnowsTheContinueInstruction keeps them equal.
const continueInstruction = ContinueInstruction

// TestDemoContinuesLikeAModel: asked to continue a stopped answer, the
// demo streams the rest of that answer (the stopped text plus the
// continuation is the whole answer), not a reply to the hidden instruction.
func TestDemoContinuesLikeAModel(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)
	full := collect(t, t.Context(), c, demoParams(openai.UserMessage("Write me a long essay"))).acc.Choices[0].Message.Content
	for _, cut := range []int{1, len(full) / 3, len(full) - 5} {
		partial := full[:cut]
		r := collect(t, t.Context(), c, demoParams(
			openai.UserMessage("Write me a long essay"), openai.AssistantMessage(partial), openai.UserMessage(continueInstruction)))
		got := r.acc.Choices[0].Message.Content
		if r.err != nil || partial+got != full {
			t.Errorf("cut at %d: continuation %q…, err %v", cut, head(got), r.err)
		}
	}
	// A stopped answer the demo would not write now still ends sensibly,
	// without quoting the instruction.
	r := collect(t, t.Context(), c, demoParams(
		openai.UserMessage("hmm"), openai.AssistantMessage("Something else entirely"), openai.UserMessage(continueInstruction)))
	if got := r.acc.Choices[0].Message.Content; r.err != nil || got == "" || strings.Contains(got, "Continue your previous") {
		t.Errorf("unknown answer continued as %q, err %v", got, r.err)
	}
	// The hello lists every trigger the demo knows.
	hello := collect(t, t.Context(), c, demoParams(openai.UserMessage("hello"))).acc.Choices[0].Message.Content
	for _, trig := range []string{"math", "diagram", "form", "batch", "/tool", "echo instructions", "echo history", "firehose", "hostile", "count"} {
		if !strings.Contains(hello, trig) {
			t.Errorf("the hello does not mention %q", trig)
		}
	}
}

func head(s string) string {
	if len(s) > 60 {
		return s[:60]
	}
	return s
}
