package agent_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/internal/testkit"
)

// BenchmarkStreamThroughput measures tokens/s from the fake server through
// openai-go, the runtime and its event bus, with the store's checkpointing
// on. One token per chunk is the worst case for per-chunk overhead.
func BenchmarkStreamThroughput(b *testing.B) {
	for _, perChunk := range []int{1, 8} {
		b.Run(fmt.Sprintf("tokens-per-chunk=%d", perChunk), func(b *testing.B) {
			h := newHarness(b)
			const chunks = 20000
			tok := " tok"
			for i := 1; i < perChunk; i++ {
				tok += " tok"
			}
			b.ResetTimer()
			var total time.Duration
			cpu0 := testkit.CPUTime()
			for i := 0; i < b.N; i++ {
				h.srv.Enqueue(fakellm.TokenStream(chunks, tok).WithSteps(fakellm.Batch(64)))
				start := time.Now()
				h.send(fmt.Sprintf("b-%d-%d", perChunk, i), "go")
				for {
					env, err := h.sub.Next(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
						break
					}
				}
				total += time.Since(start)
			}
			tokens := float64(chunks * perChunk * b.N)
			b.ReportMetric(tokens/total.Seconds(), "tokens/s")
			// Process CPU, the fake server's share included: an upper bound.
			b.ReportMetric(float64((testkit.CPUTime()-cpu0).Nanoseconds())/1000/tokens, "cpu-µs/token")
		})
	}
}

// BenchmarkStopLatency measures Stop → RUN_FINISHED(cancelled) while the
// model streams, as the subscriber sees it.
func BenchmarkStopLatency(b *testing.B) {
	h := newHarness(b)
	var lat []time.Duration
	for i := 0; i < b.N; i++ {
		h.srv.Enqueue(fakellm.Response{Steps: []fakellm.Step{fakellm.Text("a"), fakellm.Text("b"), fakellm.Stall()}})
		tid := fmt.Sprintf("s-%d", i)
		h.send(tid, "go")
		for n := 0; n < 2; {
			env, _ := h.sub.Next(context.Background())
			if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeTextMessageContent {
				n++
			}
		}
		lat = append(lat, h.timeStop(tid))
	}
	reportLatencies(b, lat)
}

// timeStop is Stop → RUN_FINISHED as the subscriber sees it; it returns
// once the thread is idle again.
func (h *harness) timeStop(tid string) time.Duration {
	start := time.Now()
	h.rt.Interrupt(tid)
	for {
		env, _ := h.sub.Next(context.Background())
		if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
			break
		}
	}
	took := time.Since(start)
	for running, _ := h.rt.Running(tid); running; running, _ = h.rt.Running(tid) {
		time.Sleep(100 * time.Microsecond)
	}
	return took
}

// reportLatencies reports the median and 99th percentile of lat.
func reportLatencies(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkApprovalRoundTrip measures one approval round trip against the
// fake model, SQLite store included: a turn pauses on a gated call
// (interrupt stored, RUN_FINISHED interrupt), Resume validates and records
// the answer, the tool runs once, the model answers with final text. The
// "direct" case makes the same two model calls with an ungated tool in
// one turn; the difference is what pausing and resuming costs.
func BenchmarkApprovalRoundTrip(b *testing.B) {
	for _, gated := range []bool{true, false} {
		name := "approval"
		if !gated {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			a := newApprovals(b)
			var total time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tid := fmt.Sprintf("bench-%d", i)
				call := fakellm.ToolCall(0, "call-"+tid, "list_files", `{}`)
				if gated {
					call = fakellm.ToolCall(0, "call-"+tid, "gated_echo", `{"text":"hi"}`)
				}
				a.srv.Enqueue(fakellm.Reply(call), fakellm.Reply(fakellm.Text("Done.")))
				start := time.Now()
				if _, err := a.rt.SendInput(context.Background(), tid, "go"); err != nil {
					b.Fatal(err)
				}
				ev := waitTerminal(b, a.harness)
				if gated {
					rf := ev.(*agui.RunFinished)
					a.idle(tid)
					if err := resumeRun(a.rt, context.Background(), tid, rf.RunID, []agui.ResumeEntry{entry("approval_call-"+tid, "resolved", "true")}, ""); err != nil {
						b.Fatal(err)
					}
					ev = waitTerminal(b, a.harness)
				}
				if rf, ok := ev.(*agui.RunFinished); !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeSuccess {
					b.Fatalf("run ended %#v", ev)
				}
				a.idle(tid)
				total += time.Since(start)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs/roundtrip")
		})
	}
}

func waitTerminal(b *testing.B, h *harness) agui.Event {
	for {
		env, err := h.sub.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if env.Name != broker.EnvelopeAGUI {
			continue
		}
		switch env.Event.EventType() {
		case agui.TypeRunFinished, agui.TypeRunError:
			return env.Event
		}
	}
}
