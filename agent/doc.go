// Package agent is Juncture's agent runtime: one state machine for all runs.
//
// It keeps the protocol core together: turns, streaming, tool runs,
// answers, pauses, threads and live snapshots. A Runtime is a long-lived
// service that runs agent turns for many threads, streams every step as
// AG-UI 1.0 events, runs tools, and stops exactly as documented at any
// moment. Its leaves live in their own packages: the event broker
// (agent/broker), the wire events and their conversions (agent/agui), the
// frontend contract's constants (agent/contract), attached files
// (agent/attach), tools (agent/tools), interrupts (agent/interrupt),
// stored records (agent/history) and the model seam (agent/model).
//
// # Guarantees
//
//   - One turn at a time per thread. Input sent while a turn runs is queued,
//     never dropped, and starts when the turn ends (Stop included: Stop ends
//     the current turn, then queued input is sent in order; the person can
//     remove queued input first).
//   - Stop (Interrupt) is a no-op when idle or repeated, never kills the
//     runtime, and never leaks into the next turn. Its three situations:
//     while the model streams (partial text kept and marked, incomplete
//     reasoning and every tool call of that message dropped, RUN_FINISHED
//     cancelled emitted before anything is saved); while a decision is pending
//     (each pending tool gets "Interrupted", no model call follows); while
//     tools run (a MustComplete tool finishes, an Abortable one is cancelled,
//     tools not started get "Interrupted").
//   - Every run ends with exactly one RUN_FINISHED or RUN_ERROR, and it is
//     the last thing the run does: everything the run wrote is saved
//     before it. (Stop while the model streams is the one exception, so
//     Stop is instant even with a stalled endpoint: the partial answer is
//     saved right after; every runtime call made after the terminal event
//     waits for that save, so no caller can observe the difference.)
//   - The history sent to the model is always valid (history.ForModel).
//   - A tool call executes at most once: the execution is recorded (per
//     thread and call id) before the tool runs. Call ids an endpoint
//     repeats (some number calls per response) are replaced by fresh ones,
//     so an old result is never replayed for a new call.
//   - Calls run in the model's order. Nothing after a call that waits on
//     the person (an approval, a question) or on the window (a client
//     action) starts before that call is settled.
//   - A call whose tool needs approval, and that no remembered rule covers,
//     never runs unanswered: its approval request is stored, then the run
//     ends with an interrupt outcome. Answer is the one way in for every
//     answer (approvals with their remember scope and edited arguments,
//     question answers, client action results, cancellations): partial
//     answers are kept durably; once every pending item of the run has one,
//     the batch is validated all or nothing, remembered rules are written
//     in the same transaction that settles it (first resolver wins), and a
//     continuation run picks up where the run paused. New input cancels
//     the batch; Stop answers each waiting call "Interrupted" without a
//     model call, and wins over a concurrent answer or is reported too late.
//   - ask_user questions and middleware questions (generic interrupts,
//     raised at beforeModel, afterModel, beforeTools or afterTools; the
//     loop guard is one) join the same batch and follow the same rules;
//     answers are validated against the question's schema before anything
//     changes. Stored items whose binding cannot be read are unbound:
//     listed, never answerable, never blocking.
//   - A client tool call (tools.Tool.Client) is recorded pending before
//     the run ends RUN_FINISHED success with pendingToolCallIds; it is
//     never run by the runtime and never re-run after a restart.
//     The window runs exactly the arguments that were approved. Its results
//     are answers like any other; new input cancels the calls.
//   - The loop guard and the step limit count model calls per turn (from
//     the person's message to a final answer), across continuations.
//   - A running call may ask the person (tools.Ask: an MCP server's
//     elicitation or sampling request). The question is stored as a
//     generic interrupt bound to the call and the run pauses on it while
//     the call stays open (parked); the continuation delivers the answer
//     to the same call. Stop, new input and Shutdown cancel the parked
//     call ("Interrupted mid-run; side effects unknown"); after a restart
//     the store's recovery ends such questions, shown in the call's result.
//     A call's progress reports (tools.ReportProgress) are emitted as
//     juncture.tool_state, at most every 100 ms.
//   - A thread is a tree of messages (branches.go): the model reads only
//     the active path; edits and regenerates are siblings; the path never
//     changes while a turn runs or while anything waits on it; the thread's
//     instructions are the last system message on its path, sent first.
//     The model is resolved per thread before every model call.
//   - Unbound interrupts (written by someone else) are never cancelled by
//     new input or Stop: they stay visible until their owner settles them.
//   - Events reach subscribers through one broker with two delivery
//     classes (see package broker): deltas may be coalesced for a subscriber
//     that is behind, everything else is delivered, in order.
//
// The runtime owns one goroutine per running turn (plus one stream reader
// while the model streams) and one per title being written; Shutdown stops
// and waits for all of them.
//
// # Lock order
//
// A goroutine that holds one of these locks takes only locks listed after
// it, never one before:
//
//  1. Runtime.answerMu: serialises Answer and Interrupt (Stop), so either
//     an answer's continuation starts first and Stop stops it, or Stop
//     wins and the answer is too late.
//  2. Runtime.mu: threads, their run state (thread.begin and thread.idle)
//     and queues, parked calls, closed. Publishing an envelope (the queue
//     event) happens under it.
//  3. liveCall.mu: a running call's progress; its progress event is
//     published under it.
//  4. The broker's locks (Broker, then Subscription; agent/broker).
//
// Runtime.liveMu and liveAnswer.mu are leaves: nothing else is taken while
// one is held.
package agent
