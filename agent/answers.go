package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

// ErrTooLate is returned (wrapped) when an answer came after the items it
// answers stopped waiting: someone else answered them, the person sent a
// message, or Stop came first. Nothing was changed by it.
var ErrTooLate = errors.New("agent: these items no longer wait for an answer")

// ErrBadRule is returned (wrapped) for an "Always allow" choice that
// cannot be a rule (an unknown scope, a scope without its pattern).
var ErrBadRule = errors.New("agent: invalid always-allow rule")

// Answers is one set of answers for a thread's paused run. It may answer
// part of what waits (unless Complete): partial answers are kept durably
// until every item has one.
type Answers struct {
	// ParentRunID is the paused run the answers are for ("" = the one
	// the thread's items belong to).
	ParentRunID string
	// RunID names the continuation run ("" = generated).
	RunID         string
	Interrupts    []InterruptAnswer
	ClientResults []ClientToolResult
	// Complete requires the interrupt answers to cover every waiting
	// interrupt at once (an AG-UI resume); a batch that does not is
	// refused, and nothing is kept from it.
	Complete bool
	// Transport is how the answers came (history.Transport*), for the
	// ledger; "" reads as the window.
	Transport string
}

// InterruptAnswer answers one interrupt (an AG-UI resume entry) and, for
// an approval that is approved, may ask to always allow such calls.
type InterruptAnswer struct {
	agui.ResumeEntry
	Remember *Remember `json:"remember,omitempty"`
}

// Remember is an "Always allow" choice: for the tool, a command prefix or
// a folder (history.Scope*).
type Remember struct {
	Scope   string `json:"scope"`
	Pattern string `json:"pattern,omitempty"`
	// Arg and Glob complete the argument scopes (history.PermissionRule).
	Arg  string `json:"arg,omitempty"`
	Glob string `json:"glob,omitempty"`
	// Duration is how long the rule lasts (history.Duration*; "" until
	// revoked).
	Duration string `json:"duration,omitempty"`
	// Deny, on a declined approval, makes it a "Never" rule; Reason is
	// what the model reads when the rule refuses a call.
	Deny   bool   `json:"deny,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// AnswerOutcome says what Answer did: the continuation RunID started
// (Continued), or the items still waiting for an answer (interrupt ids and
// client tool call ids).
type AnswerOutcome struct {
	Continued bool
	RunID     string
	Waiting   []string
}

// stagedPayload is how a partial answer is kept.
type stagedPayload struct {
	Interrupt *InterruptAnswer  `json:"interrupt,omitempty"`
	Client    *ClientToolResult `json:"client,omitempty"`
}

// ErrNothingPending is returned by Answer when the thread waits on nothing
// and no answers were given.
var ErrNothingPending = errors.New("agent: the thread has nothing waiting for an answer")

// RefusedError is returned by Answer when the answers were refused. For a
// complete batch the run RunID was emitted as RUN_STARTED then RUN_ERROR
// (TanStack error objects under metadata.tanstack.interruptErrors); a
// refused partial answer emits nothing (RunID is empty). Nothing changed
// either way and the items stay answerable.
type RefusedError struct {
	RunID string
	Batch *interrupt.BatchError
	Err   error // set when checking the answers failed (not the person's fault)
}

func (e *RefusedError) Error() string {
	if e.Err != nil {
		return "the answers could not be checked: " + e.Err.Error()
	}
	return "the answers were refused: " + e.Batch.Error()
}

// Unwrap returns the failure behind a refusal, if any.
func (e *RefusedError) Unwrap() error { return e.Err }

// waiting is what a thread's paused run waits on, with the answers kept.
type waiting struct {
	interrupts []history.Interrupt
	clients    []history.ClientToolCall
	kept       map[string]stagedPayload // by item id
	runID      string
}

func (w *waiting) ids() []string {
	ids := make([]string, 0, len(w.interrupts)+len(w.clients))
	for _, it := range w.interrupts {
		ids = append(ids, it.ID)
	}
	for _, c := range w.clients {
		ids = append(ids, c.ToolCallID)
	}
	return ids
}

// Answer is the one way answers reach a paused thread: approvals (with
// their remember scope and edited arguments), question answers,
// cancellations and the results of the window's actions. The answers are
// checked first; while items still lack an answer the given ones are kept
// (a restart keeps them too) and Waiting lists the rest. Once every item
// the run waits on has an answer, the batch is validated all or nothing,
// settled in one transaction together with the "Always allow" rules it
// chose (first resolver wins: a late one gets ErrTooLate), and the
// continuation run starts. A refused batch gives a *RefusedError; a busy
// thread ErrBusy, a closed runtime ErrClosed.
func (rt *Runtime) Answer(ctx context.Context, threadID string, a Answers) (AnswerOutcome, error) {
	if threadID == "" {
		return AnswerOutcome{}, fmt.Errorf("answering: thread id is empty")
	}
	if err := rt.waitSettled(ctx, threadID); err != nil {
		return AnswerOutcome{}, err
	}
	rt.answerMu.Lock()
	defer rt.answerMu.Unlock()
	if err := rt.checkIdle(threadID); err != nil {
		return AnswerOutcome{}, err
	}
	w, err := rt.loadWaiting(ctx, threadID)
	if err != nil {
		return AnswerOutcome{}, err
	}
	if len(w.interrupts) == 0 && len(w.clients) == 0 && len(a.Interrupts) == 0 && len(a.ClientResults) == 0 {
		return AnswerOutcome{}, ErrNothingPending
	}
	if err := checkClientResults(w, a.ClientResults); err != nil {
		return AnswerOutcome{}, err
	}
	if !a.Complete {
		// Partial answers name items one by one: one that no longer waits
		// was settled by someone else first (or cancelled).
		for _, ia := range a.Interrupts {
			if !slices.ContainsFunc(w.interrupts, func(it history.Interrupt) bool { return it.ID == ia.InterruptID }) {
				return AnswerOutcome{}, fmt.Errorf("%w: %s", ErrTooLate, ia.InterruptID)
			}
		}
		for _, ia := range a.Interrupts {
			w.kept[ia.InterruptID] = stagedPayload{Interrupt: &ia}
		}
		for _, r := range a.ClientResults {
			w.kept[r.ToolCallID] = stagedPayload{Client: &r}
		}
		if missing := w.unanswered(); len(missing) > 0 {
			return rt.keepAnswers(ctx, threadID, w, a, missing)
		}
	}
	return rt.settle(ctx, threadID, w, a)
}

// checkIdle returns ErrClosed or ErrBusy unless the thread is free to
// continue.
func (rt *Runtime) checkIdle(threadID string) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.busy(threadID)
}

// loadWaiting reads what the thread waits on and the answers kept so far.
func (rt *Runtime) loadWaiting(ctx context.Context, threadID string) (*waiting, error) {
	its, clients, err := rt.waitingItems(ctx, threadID)
	if err != nil {
		return nil, err
	}
	w := &waiting{interrupts: its, clients: clients, kept: map[string]stagedPayload{}}
	switch {
	case len(its) > 0:
		w.runID = its[0].RunID
	case len(clients) > 0:
		w.runID = clients[0].RunID
	}
	staged, err := rt.st.StagedAnswers(ctx, threadID)
	if err != nil {
		return nil, fmt.Errorf("loading the answers given so far: %w", err)
	}
	for _, s := range staged {
		var p stagedPayload
		if err := json.Unmarshal(s.Payload, &p); err != nil {
			rt.log.Warn("dropping an unreadable kept answer", "thread", threadID, "item", s.ItemID, "err", err)
			continue
		}
		w.kept[s.ItemID] = p
	}
	return w, nil
}

// unanswered lists the waiting items without an answer.
func (w *waiting) unanswered() []string {
	var out []string
	for _, id := range w.ids() {
		if _, ok := w.kept[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// checkClientResults refuses results for calls that do not wait.
func checkClientResults(w *waiting, results []ClientToolResult) error {
	for _, r := range results {
		if !slices.ContainsFunc(w.clients, func(c history.ClientToolCall) bool { return c.ToolCallID == r.ToolCallID }) {
			return fmt.Errorf("%w: %s", ErrNoClientCall, r.ToolCallID)
		}
	}
	return nil
}

// keepAnswers checks the given interrupt answers on their own and keeps
// them until the batch is complete.
func (rt *Runtime) keepAnswers(ctx context.Context, threadID string, w *waiting, a Answers, missing []string) (AnswerOutcome, error) {
	if len(a.Interrupts) > 0 {
		var stored []history.Interrupt
		entries := make([]agui.ResumeEntry, 0, len(a.Interrupts))
		for _, ia := range a.Interrupts {
			i := slices.IndexFunc(w.interrupts, func(it history.Interrupt) bool { return it.ID == ia.InterruptID })
			if i < 0 {
				return AnswerOutcome{}, fmt.Errorf("%w: %s", ErrTooLate, ia.InterruptID)
			}
			stored = append(stored, w.interrupts[i])
			entries = append(entries, ia.ResumeEntry)
		}
		parent := a.ParentRunID
		if parent == "" {
			parent = w.runID
		}
		ds, _, refused, err := rt.validateAnswers(ctx, threadID, parent, stored, entries, rt.toolsNow(ctx, threadID))
		if err != nil {
			return AnswerOutcome{}, &RefusedError{Err: err}
		}
		if refused != nil {
			return AnswerOutcome{}, &RefusedError{Batch: refused}
		}
		if _, err := rt.rememberRules(ctx, stored, a.Interrupts, ds); err != nil {
			return AnswerOutcome{}, err
		}
	}
	keep := make([]history.StagedAnswer, 0, len(a.Interrupts)+len(a.ClientResults))
	for _, ia := range a.Interrupts {
		keep = append(keep, stagedAnswer(threadID, ia.InterruptID, stagedPayload{Interrupt: &ia}, rt.now()))
	}
	for _, r := range a.ClientResults {
		keep = append(keep, stagedAnswer(threadID, r.ToolCallID, stagedPayload{Client: &r}, rt.now()))
	}
	if err := rt.st.StageAnswers(ctx, threadID, keep); err != nil {
		var conflict *history.ConflictError
		if errors.As(err, &conflict) {
			return AnswerOutcome{}, fmt.Errorf("%w: %w", ErrTooLate, err)
		}
		return AnswerOutcome{}, fmt.Errorf("keeping the answers: %w", err)
	}
	return AnswerOutcome{Waiting: missing}, nil
}

func stagedAnswer(threadID, id string, p stagedPayload, now int64) history.StagedAnswer {
	b, _ := json.Marshal(p)
	return history.StagedAnswer{ThreadID: threadID, ItemID: id, Payload: b, CreatedAt: now}
}

func (rt *Runtime) toolsNow(ctx context.Context, threadID string) *tools.Registry {
	if rt.opts.Tools == nil {
		return nil
	}
	return rt.opts.Tools(ctx, threadID)
}

// rememberRules returns the rules the answers' "Always allow" choices ask
// for, for the approvals the validated decisions ds approve (the interrupt
// model is the one judge of what a payload means).
func (rt *Runtime) rememberRules(ctx context.Context, stored []history.Interrupt, answers []InterruptAnswer, ds []decision) ([]history.PermissionRule, error) {
	approved, denied := map[string]bool{}, map[string]bool{}
	for _, d := range ds {
		if d.approved {
			approved[d.call.ID] = true
		} else if d.state == contract.ToolDenied {
			denied[d.call.ID] = true
		}
	}
	var rules []history.PermissionRule
	for _, ia := range answers {
		i := slices.IndexFunc(stored, func(it history.Interrupt) bool { return it.ID == ia.InterruptID })
		// "Always allow" goes with an approval, "Never" with a denial.
		if ia.Remember == nil || i < 0 || (ia.Remember.Deny && !denied[stored[i].ToolCallID]) ||
			(!ia.Remember.Deny && !approved[stored[i].ToolCallID]) {
			continue
		}
		r, err := rt.rememberRule(ctx, stored[i], ia.Remember)
		if err != nil {
			return nil, err
		}
		if r != nil {
			rules = append(rules, *r)
		}
	}
	return rules, nil
}

// rememberRule is the rule an approval's "Always allow" choice asks for
// (nil when the item is not a tool approval).
func (rt *Runtime) rememberRule(ctx context.Context, it history.Interrupt, rem *Remember) (*history.PermissionRule, error) {
	r, err := rt.ruleOfChoice(it, rem)
	if r == nil || err != nil {
		return r, err
	}
	return rt.withDuration(ctx, r, it.ThreadID, rem)
}

// withDuration gives a remembered rule its effect, reason and end.
func (rt *Runtime) withDuration(ctx context.Context, r *history.PermissionRule, threadID string, rem *Remember) (*history.PermissionRule, error) {
	if rem.Deny {
		r.Effect, r.Reason = history.EffectDeny, rem.Reason
	}
	exp, err := history.ExpiresFor(rem.Duration, rt.opts.Now())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRule, err)
	}
	r.Duration, r.ExpiresAt = rem.Duration, exp
	switch rem.Duration {
	case history.DurationChat:
		r.ThreadID = threadID
	case history.DurationTurn:
		r.ThreadID, r.TurnID = threadID, rt.turnOf(ctx, threadID)
		if r.TurnID == "" {
			return nil, fmt.Errorf("%w: this chat has no turn to last for", ErrBadRule)
		}
	}
	return r, nil
}

// ruleOfChoice is the rule an approval's choice names (its scope only).
func (rt *Runtime) ruleOfChoice(it history.Interrupt, rem *Remember) (*history.PermissionRule, error) {
	if it.Kind != history.KindToolApproval {
		return nil, nil
	}
	var d interrupt.Descriptor
	if err := json.Unmarshal(it.Descriptor, &d); err != nil {
		return nil, fmt.Errorf("reading the approval %s: %w", it.ID, err)
	}
	b, _ := interrupt.ReadBinding(d)
	scope := rem.Scope
	// A tool with its own rules (an MCP tool) can only remember one of
	// the rules its card offered; "the tool" means its identity rule.
	if offered, own := offeredRules(d); own {
		for _, r := range offered {
			if (r.Scope == scope && r.Pattern == rem.Pattern && r.Arg == rem.Arg && r.Glob == rem.Glob) ||
				(scope == "" || scope == history.ScopeTool) && r.Scope == history.ScopeToolIdentity {
				return &history.PermissionRule{ID: NewID("rule"), Tool: r.Tool, Scope: r.Scope, Pattern: r.Pattern, Arg: r.Arg, Glob: r.Glob, CreatedAt: rt.now()}, nil
			}
		}
		return nil, fmt.Errorf("%w: %s rules can only be one of those the approval offered", ErrBadRule, b.ToolName)
	}
	if scope == "" {
		scope = history.ScopeTool
	}
	switch {
	case scope == history.ScopeThread && rem.Pattern != it.ThreadID:
		return nil, fmt.Errorf("%w: a rule for this chat names this chat", ErrBadRule)
	case scope != history.ScopeTool && scope != history.ScopeCommandPrefix && scope != history.ScopeFolder &&
		scope != history.ScopeFile && scope != history.ScopeThread && scope != history.ScopeCommandGlob &&
		scope != history.ScopeFolderGlob && scope != history.ScopeHost:
		return nil, fmt.Errorf("%w: unknown scope %q", ErrBadRule, scope)
	case scope == history.ScopeFolderGlob && rem.Glob == "":
		return nil, fmt.Errorf("%w: a folder rule with a glob needs the glob", ErrBadRule)
	case scope != history.ScopeTool && rem.Pattern == "":
		return nil, fmt.Errorf("%w: the %s scope needs a pattern", ErrBadRule, scope)
	case b.ToolName == "":
		return nil, fmt.Errorf("%w: the approval does not name its tool", ErrBadRule)
	}
	r := &history.PermissionRule{ID: NewID("rule"), Tool: b.ToolName, Scope: scope, Pattern: rem.Pattern, CreatedAt: rt.now()}
	if scope == history.ScopeFolderGlob {
		r.Glob = rem.Glob
	}
	if scope == history.ScopeThread {
		r.ThreadID = it.ThreadID
	}
	return r, nil
}

// offeredRules reads the rules an approval's card offered; own reports
// that they are a tool's own rules (scopes only such tools use).
func offeredRules(d interrupt.Descriptor) (rules []history.PermissionRule, own bool) {
	raw, ok := d.Metadata[MetaSuggestedRules]
	if !ok || json.Unmarshal(raw, &rules) != nil {
		return nil, false
	}
	for _, r := range rules {
		if r.Scope == history.ScopeToolIdentity || r.Scope == history.ScopeServer {
			return rules, true
		}
	}
	return nil, false
}

// settle validates the complete batch, settles it with its rules in one
// transaction, and starts the continuation (or the refusal run). The
// thread is reserved first, so input sent meanwhile queues behind the
// continuation, and a Stop meanwhile stops it.
func (rt *Runtime) settle(ctx context.Context, threadID string, w *waiting, a Answers) (AnswerOutcome, error) {
	if _, err := rt.opts.Model(ctx, threadID); err != nil {
		return AnswerOutcome{}, err
	}
	runID := a.RunID
	if runID == "" {
		runID = NewID("run")
	}
	parent := a.ParentRunID
	if parent == "" && !a.Complete {
		parent = w.runID
	}
	rt.mu.Lock()
	if err := rt.busy(threadID); err != nil {
		rt.mu.Unlock()
		return AnswerOutcome{}, err
	}
	t := rt.handle(threadID)
	runCtx, stop := t.begin(rt.baseCx, runID)
	rt.turns.Add(1)
	rt.mu.Unlock()

	in := Input{ThreadID: threadID, RunID: runID, ParentRunID: parent}
	ds, s, refused, err := rt.decide(ctx, threadID, parent, w, a)
	if err == nil && refused == nil {
		s.Transport = a.Transport
		s.Ledger = rt.ledgerOf(ctx, threadID, parent, w, ds)
		if serr := rt.st.Settle(ctx, s); serr != nil {
			var conflict *history.ConflictError
			if !errors.As(serr, &conflict) {
				err = serr
			} else {
				corr := interrupt.Correlation{ThreadID: threadID, InterruptedRunID: parent}
				refused = &interrupt.BatchError{Errors: []interrupt.Error{interrupt.NewEngineError(corr, interrupt.CodeConflict, serr.Error(), conflict.IDs)}}
			}
		}
	}
	if err != nil {
		refused = &interrupt.BatchError{Errors: []interrupt.Error{interrupt.NewEngineError(
			interrupt.Correlation{ThreadID: threadID, InterruptedRunID: parent}, interrupt.CodeServer, err.Error(), w.ids())}}
	}
	var out error
	if refused != nil {
		term := refused.Terminal(runID, threadID, rt.opts.Now())
		in.kind = kindRefused
		in.refusal = agui.NewRunError(term.Message, term.Code, map[string]any{
			"tanstack": term.Metadata.Tanstack, "threadId": threadID, "runId": runID,
		})
		out = &RefusedError{RunID: runID, Batch: refused, Err: err}
	} else {
		in.kind = kindResume
		in.decisions, in.hooks = map[string]decision{}, nil
		for _, d := range ds {
			if d.hookDef != "" {
				in.hooks = append(in.hooks, d)
				continue
			}
			if prev, ok := in.decisions[d.call.ID]; ok && prev.midCall && d.midCall {
				// Several questions of one call: its retry gets them all.
				maps.Copy(prev.replies, d.replies)
				continue
			}
			in.decisions[d.call.ID] = d
		}
	}
	go rt.drive(t, runCtx, stop, in)
	if out != nil {
		return AnswerOutcome{}, out
	}
	return AnswerOutcome{Continued: true, RunID: runID, Waiting: []string{}}, nil
}

// decide turns the complete batch into the continuation's decisions and
// the settlement that records it.
func (rt *Runtime) decide(ctx context.Context, threadID, parent string, w *waiting, a Answers) ([]decision, history.Settlement, *interrupt.BatchError, error) {
	s := history.Settlement{ThreadID: threadID}
	answers := a.Interrupts
	if !a.Complete {
		answers = nil
		for _, it := range w.interrupts {
			if p := w.kept[it.ID]; p.Interrupt != nil {
				answers = append(answers, *p.Interrupt)
			}
		}
	}
	var ds []decision
	if len(w.interrupts) > 0 || len(answers) > 0 {
		entries := make([]agui.ResumeEntry, 0, len(answers))
		for _, ia := range answers {
			entries = append(entries, ia.ResumeEntry)
		}
		var refused *interrupt.BatchError
		var err error
		ds, s.Interrupts, refused, err = rt.validateAnswers(ctx, threadID, parent, w.interrupts, entries, rt.toolsNow(ctx, threadID))
		if err != nil || refused != nil {
			return nil, s, refused, err
		}
		if s.Rules, err = rt.rememberRules(ctx, w.interrupts, answers, ds); err != nil {
			return nil, s, nil, err
		}
	}
	results := a.ClientResults
	if !a.Complete {
		results = nil
		for _, c := range w.clients {
			if p := w.kept[c.ToolCallID]; p.Client != nil {
				results = append(results, *p.Client)
			}
		}
	}
	if len(results) > 0 {
		msgs, err := rt.st.Messages(ctx, threadID)
		if err != nil {
			return nil, s, nil, fmt.Errorf("loading the thread: %w", err)
		}
		calls, _ := callsByID(msgs)
		for _, r := range results {
			i := slices.IndexFunc(w.clients, func(c history.ClientToolCall) bool { return c.ToolCallID == r.ToolCallID })
			d, c := clientDecision(w.clients[i], r, calls[r.ToolCallID])
			ds = append(ds, d)
			s.ClientCalls = append(s.ClientCalls, c)
		}
	}
	return ds, s, nil, nil
}
