package agent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/fakellm"
)

// TestInterruptChaos runs seeded turns and presses Stop at a random moment
// of a random phase: streaming text, streaming tool-call arguments,
// reasoning, between tools, during a MustComplete and an Abortable tool,
// during a retry backoff, and while idle. After each turn the agent is idle,
// the history is valid for the API, and at the end the whole recorded event
// stream passes the AG-UI 1.0 validator. JUNCTURE_CHAOS_TURNS sets the count.
func TestInterruptChaos(t *testing.T) {
	turns := 120
	if n, err := strconv.Atoi(os.Getenv("JUNCTURE_CHAOS_TURNS")); err == nil && n > 0 {
		turns = n
	}
	h := newHarness(t, func(o *agent.Options) { o.BackoffBase = 20 * time.Millisecond })
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("JUNCTURE_CHAOS_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (JUNCTURE_CHAOS_SEED to replay)", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	d := func(ms int) fakellm.Step { return fakellm.Delay(time.Duration(ms) * time.Millisecond) }
	scenarios := []func() []fakellm.Response{
		func() []fakellm.Response { // streaming text
			var s []fakellm.Step
			for i := 0; i < 20; i++ {
				s = append(s, fakellm.Text(fmt.Sprintf("w%d ", i)), d(1))
			}
			return []fakellm.Response{fakellm.Reply(s...)}
		},
		func() []fakellm.Response { // reasoning then text
			return []fakellm.Response{fakellm.Reply(fakellm.Reasoning("think "), d(3), fakellm.Reasoning("more "), d(3), fakellm.Text("answer"), d(3), fakellm.Text(" done"))}
		},
		func() []fakellm.Response { // tool-call arguments streaming
			return []fakellm.Response{
				fakellm.Reply(fakellm.Text("Let me look. "), fakellm.ToolCall(0, "", "list_files", `{"pa`), d(4), fakellm.ToolArgs(0, `th":"."}`), d(4)),
				fakellm.Reply(fakellm.Text("Listed.")),
			}
		},
		func() []fakellm.Response { // between tools and during a MustComplete tool
			return []fakellm.Response{
				fakellm.Reply(fakellm.ToolCall(0, "", "slow_finish", `{"ms":5}`), fakellm.ToolCall(1, "", "slow_finish", `{"ms":5}`)),
				fakellm.Reply(d(5), fakellm.Text("after tools")),
			}
		},
		func() []fakellm.Response { // during an Abortable tool
			return []fakellm.Response{
				fakellm.Reply(fakellm.ToolCall(0, "", "slow_abortable", `{"ms":30}`)),
				fakellm.Reply(fakellm.Text("after")),
			}
		},
		func() []fakellm.Response { // retry backoff
			return []fakellm.Response{fakellm.HTTPError(503, `{"error":{"message":"busy"}}`), fakellm.Reply(fakellm.Text("ok"))}
		},
	}
	for i := 0; i < turns; i++ {
		tid := fmt.Sprintf("chaos-%d", i)
		sc := rng.IntN(len(scenarios) + 1)
		if sc == len(scenarios) { // idle: Stop with nothing running
			h.rt.Interrupt(tid)
			continue
		}
		resps := scenarios[sc]()
		h.srv.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("fallback")) })
		h.srv.Enqueue(resps...)
		h.send(tid, "go")
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
		h.rt.Interrupt(tid)
		h.terminal()
		h.idle(tid)
		drain(h)
		h.assertValidHistory(tid)
		h.srv.Reset() // responses a Stop left unused must not answer the next turn
		select {
		case <-h.slowStarted:
		default:
		}
	}
	var stream []byte
	seen := map[string]bool{}
	for _, env := range h.events {
		if !seen[env.ThreadID] {
			seen[env.ThreadID] = true
			stream = append(stream, h.sse(env.ThreadID)...)
		}
	}
	validateAGUI(t, stream)
}

// drain reads what is already queued on the subscription.
func drain(h *harness) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		env, err := h.sub.Next(ctx)
		cancel()
		if err != nil {
			return
		}
		h.events = append(h.events, env)
	}
}
