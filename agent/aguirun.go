package agent

import (
	"context"
	"errors"
	"iter"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/history"
)

// ErrorReporter turns a runtime error into the RUN_ERROR message and code
// a transport shows (the facade's error mapping).
type ErrorReporter func(err error) (message, code string)

// RunAGUI runs one AG-UI input and yields the events of its run, from
// RUN_STARTED to its terminal event. The runtime decides what the input
// means:
//   - tool results (role "tool" messages) for the thread's pending client
//     calls complete them, as Answer does; when other calls of that run
//     still wait, the run is just RUN_STARTED + RUN_FINISHED success with
//     the ids still pending;
//   - a resume, or any input while interrupts wait, is the complete answer
//     batch for them (an input without resume is refused, every waiting
//     item reported missing);
//   - anything else starts a new run, which must start now (ErrBusy
//     otherwise).
//
// Errors become a RUN_ERROR event (report names them). If the consumer
// stops early or ctx ends (the client went away), the run is stopped as
// Stop does. Each event comes with more: whether further events are
// already queued behind it, so a writer can frame them and flush once.
func (rt *Runtime) RunAGUI(ctx context.Context, in agui.RunAgentInput, report ErrorReporter) iter.Seq2[agui.Event, bool] {
	return func(yield func(agui.Event, bool) bool) {
		fail := func(err error) {
			msg, code := report(err)
			yield(agui.NewRunError(msg, code, map[string]any{"threadId": in.ThreadID, "runId": in.RunID}), false)
		}
		sub := rt.SubscribeWith(in.ThreadID, broker.SubscribeOptions{Coalesce: 1})
		defer sub.Close()
		its, clients, err := rt.waitingItems(ctx, in.ThreadID)
		if err != nil {
			fail(err)
			return
		}
		switch results := clientResultsIn(clients, in); {
		case len(in.Resume) == 0 && len(results) > 0:
			out, err := rt.Answer(ctx, in.ThreadID, Answers{RunID: in.RunID, ClientResults: results, Transport: history.TransportAGUI})
			if err != nil {
				fail(err)
				return
			}
			if !out.Continued {
				if yield(agui.NewRunStarted(in.ThreadID, in.RunID, in.ParentRunID), true) {
					yield(agui.NewRunFinished(in.ThreadID, in.RunID, &agui.Outcome{Type: agui.OutcomeSuccess, PendingToolCallIDs: out.Waiting}), false)
				}
				return
			}
		case len(in.Resume) > 0 || len(its) > 0:
			answers := Answers{ParentRunID: in.ParentRunID, RunID: in.RunID, Complete: true, Transport: history.TransportAGUI}
			for _, e := range in.Resume {
				answers.Interrupts = append(answers.Interrupts, InterruptAnswer{ResumeEntry: e})
			}
			_, err := rt.Answer(ctx, in.ThreadID, answers)
			var refused *RefusedError
			if err != nil && !errors.As(err, &refused) {
				fail(err)
				return
			}
		default:
			err := rt.StartExclusive(ctx, Input{
				ThreadID: in.ThreadID, RunID: in.RunID, ParentRunID: in.ParentRunID,
				Messages: agui.ToHistory(in.ThreadID, in.Messages),
			})
			if err != nil {
				fail(err)
				return
			}
		}
		rt.relayRun(ctx, sub, in.ThreadID, in.RunID, yield)
	}
}

// relayRun yields one run's events, from its RUN_STARTED to its terminal
// event. If the consumer goes away first, the run is stopped.
func (rt *Runtime) relayRun(ctx context.Context, sub *broker.Subscription, threadID, runID string, yield func(agui.Event, bool) bool) {
	started := false
	var batch []broker.Envelope
	for {
		var err error
		batch, err = sub.NextBatch(ctx, batch)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				rt.InterruptVia(threadID, history.TransportAGUI)
			}
			return
		}
		for i, env := range batch {
			if env.Name != broker.EnvelopeAGUI {
				continue
			}
			ev := env.Event
			if rs, ok := ev.(*agui.RunStarted); ok && rs.RunID == runID {
				started = true
			}
			if !started {
				continue
			}
			if !yield(ev, i < len(batch)-1) {
				rt.InterruptVia(threadID, history.TransportAGUI)
				return
			}
			switch e := ev.(type) {
			case *agui.RunFinished:
				if e.RunID == runID {
					return
				}
			case *agui.RunError:
				return
			}
		}
	}
}

// clientResultsIn picks the tool results of in that answer the thread's
// pending client calls.
func clientResultsIn(clients []history.ClientToolCall, in agui.RunAgentInput) []ClientToolResult {
	if len(clients) == 0 {
		return nil
	}
	waiting := map[string]bool{}
	for _, c := range clients {
		waiting[c.ToolCallID] = true
	}
	var out []ClientToolResult
	for _, m := range agui.ToHistory(in.ThreadID, in.Messages) {
		if m.Role == history.RoleTool && waiting[m.ToolCallID] {
			out = append(out, ClientToolResult{ToolCallID: m.ToolCallID, Content: m.Content, IsError: m.IsError})
			delete(waiting, m.ToolCallID)
		}
	}
	return out
}
