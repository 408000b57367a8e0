package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
)

// Boundary is a point of a turn where middleware may pause the run with a
// question (TanStack's interrupt boundaries).
type Boundary string

// Boundaries, in the order a model step meets them.
const (
	BeforeModel Boundary = "beforeModel" // before each model call
	AfterModel  Boundary = "afterModel"  // after an answer is saved, before its tools
	BeforeTools Boundary = "beforeTools" // before the answer's tool calls run (only when there are some)
	AfterTools  Boundary = "afterTools"  // after the tool results are saved, before the next model call
)

// InterruptDefinition is a first-party generic interrupt (TanStack
// defineInterrupt): an id and the JSON Schema every answer must satisfy.
type InterruptDefinition struct{ def interrupt.Definition }

// DefineInterrupt defines a generic interrupt. The id must be unique among
// the runtime's middleware; responseSchema is a JSON Schema object.
func DefineInterrupt(id string, responseSchema json.RawMessage) (InterruptDefinition, error) {
	if strings.TrimSpace(id) == "" {
		return InterruptDefinition{}, fmt.Errorf("defining an interrupt: the id is empty")
	}
	if _, err := interrupt.HashDefinitionSchema(responseSchema); err != nil {
		return InterruptDefinition{}, fmt.Errorf("defining interrupt %s: %w", id, err)
	}
	if _, err := interrupt.NewSchemaCache(1).Compile(responseSchema); err != nil {
		return InterruptDefinition{}, fmt.Errorf("defining interrupt %s: %w", id, err)
	}
	return InterruptDefinition{def: interrupt.Definition{ID: id, ResponseSchema: responseSchema}}, nil
}

// MustDefineInterrupt is DefineInterrupt that panics on error (for
// package-level definitions).
func MustDefineInterrupt(id string, responseSchema json.RawMessage) InterruptDefinition {
	d, err := DefineInterrupt(id, responseSchema)
	if err != nil {
		panic(err)
	}
	return d
}

// ID returns the definition id.
func (d InterruptDefinition) ID() string { return d.def.ID }

// Question is what a middleware asks at a boundary.
type Question struct {
	Reason  string // machine-readable reason; default "question"
	Message string // what the person reads
}

// HookState is what a middleware sees at a boundary.
type HookState struct {
	Boundary   Boundary
	ThreadID   string
	RunID      string
	ModelCalls int                // model calls made so far in this turn (across continuations)
	Messages   []history.Message  // the thread's history
	ToolCalls  []history.ToolCall // the latest answer's calls (not at beforeModel)
}

// HookAction is what an answer does to the run.
type HookAction struct {
	// Stop ends the turn normally (RUN_FINISHED success) without another
	// model call; Note, when set, is saved as a short assistant message.
	Stop bool
	Note string
	// Append adds messages (user or system role) before the next model call.
	Append []history.Message
	// System replaces the system prompt for the rest of the run.
	System string
	// CountFromZero restarts the turn's model-call count (the person said
	// "keep going" to the loop guard).
	CountFromZero bool
}

// Middleware raises a generic interrupt at one boundary and applies the
// person's answer when the run resumes (answers are validated against
// Definition's schema first). It is looked up by Definition.ID() on resume,
// so it must be registered in Options.Middleware after a restart too.
type Middleware struct {
	Name       string
	Boundary   Boundary
	Definition InterruptDefinition
	// Check returns a question to pause, or nil to go on.
	Check func(HookState) *Question
	// Apply applies the validated answer (cancelled: the person dismissed
	// the question; answer is nil). A nil Apply just goes on.
	Apply func(s HookState, answer json.RawMessage, cancelled bool) HookAction
}

// Loop guard.
const (
	LoopGuardDefinitionID = "juncture.loop_guard"
	LoopGuardNote         = "Stopped here as you asked. Send a message to continue."
	DefaultLoopGuard      = 25
)

// LoopGuard returns the built-in middleware that asks "keep going?"
// (a boolean) before a model call once n model calls were made in one run;
// false ends the turn normally with a short note.
func LoopGuard(n int) Middleware { return loopGuard(func() int { return n }) }

func loopGuard(limit func() int) Middleware {
	return Middleware{
		Name: "loop-guard", Boundary: BeforeModel,
		Definition: MustDefineInterrupt(LoopGuardDefinitionID, json.RawMessage(`{"type":"boolean"}`)),
		Check: func(s HookState) *Question {
			if n := limit(); n <= 0 || s.ModelCalls < n {
				return nil
			}
			return &Question{Reason: "loop_guard", Message: fmt.Sprintf("The assistant has made %d model calls in this turn. Keep going?", s.ModelCalls)}
		},
		Apply: func(_ HookState, answer json.RawMessage, cancelled bool) HookAction {
			if cancelled || strings.TrimSpace(string(answer)) != "true" {
				return HookAction{Stop: true, Note: LoopGuardNote}
			}
			return HookAction{CountFromZero: true}
		},
	}
}

// middleware returns the runtime's middleware, loop guard included.
func (rt *Runtime) middleware() []Middleware {
	return rt.mws
}

func (rt *Runtime) middlewareByDef(id string) (Middleware, bool) {
	for _, m := range rt.mws {
		if m.Definition.ID() == id {
			return m, true
		}
	}
	return Middleware{}, false
}

// hookState builds the state a middleware sees.
func (tr *turn) hookState(b Boundary, calls []history.ToolCall) HookState {
	msgs, err := tr.rt.st.Messages(tr.save, tr.run.ThreadID)
	if err != nil {
		tr.rt.log.Error("loading the thread for middleware", "thread", tr.run.ThreadID, "err", err)
	}
	return HookState{Boundary: b, ThreadID: tr.run.ThreadID, RunID: tr.run.ID, ModelCalls: tr.modelCalls, Messages: msgs, ToolCalls: calls}
}

// hooks runs the middleware of boundary b. paused is true when the run
// ends here (end says how).
func (tr *turn) hooks(b Boundary, calls []history.ToolCall) (end ending, paused bool) {
	for _, m := range tr.rt.middleware() {
		if m.Boundary != b || m.Check == nil {
			continue
		}
		if tr.skip[m.Name] {
			delete(tr.skip, m.Name) // just answered: not asked again at once
			continue
		}
		q := m.Check(tr.hookState(b, calls))
		if q == nil {
			continue
		}
		d, err := tr.genericDescriptor(m.Definition.def, m.Name+":"+string(b), q)
		if err != nil {
			return tr.fail(fmt.Errorf("middleware %s: %w", m.Name, err), ""), true
		}
		return tr.pause(history.Message{}, nil, []pendingGeneric{{desc: d}}), true
	}
	return endSuccess, false
}

// genericDescriptor builds an unopened first-party generic descriptor.
func (tr *turn) genericDescriptor(def interrupt.Definition, key string, q *Question) (interrupt.Descriptor, error) {
	reason := q.Reason
	if reason == "" {
		reason = "question"
	}
	msg := q.Message
	if strings.TrimSpace(msg) == "" {
		msg = "The assistant has a question."
	}
	req, err := def.Interrupt(interrupt.RequestInput{Key: key, Reason: reason, Message: msg}, tr.rt.schemas)
	if err != nil {
		return interrupt.Descriptor{}, err
	}
	id, err := interrupt.NewGenericInterruptID(tr.rt.opts.Now(), nil)
	if err != nil {
		return interrupt.Descriptor{}, err
	}
	return interrupt.NewGenericDescriptor(id, req)
}

// applyHook applies the answer of a middleware question.
func (tr *turn) applyHook(d decision) (end ending, stop bool) {
	m, ok := tr.rt.middlewareByDef(d.hookDef)
	if !ok {
		return endSuccess, false
	}
	if tr.skip == nil {
		tr.skip = map[string]bool{}
	}
	if m.Boundary == BeforeModel || m.Boundary == BeforeTools {
		tr.skip[m.Name] = true
	}
	if m.Apply == nil {
		return endSuccess, false
	}
	act := m.Apply(tr.hookState(m.Boundary, nil), d.answer, d.cancelled)
	if act.System != "" {
		tr.system = act.System
	}
	if act.CountFromZero {
		tr.modelCalls = 0
	}
	for _, am := range act.Append {
		am.ID, am.ThreadID, am.RunID, am.CreatedAt = NewID("msg"), tr.run.ThreadID, tr.run.ID, tr.rt.now()
		if am.Role == "" {
			am.Role = history.RoleUser
		}
		am.Status = history.StatusComplete
		if err := tr.rt.st.PutMessage(tr.save, am); err != nil {
			return tr.fail(fmt.Errorf("saving a middleware message: %w", err), ""), true
		}
	}
	if act.Stop {
		if act.Note != "" {
			tr.note(act.Note)
		}
		return endSuccess, true
	}
	return endSuccess, false
}
