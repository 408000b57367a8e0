package app

import (
	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
)

// AGUIEvent is the data of an "agui" event.
type AGUIEvent struct {
	ThreadID string     `json:"threadId"`
	Event    agui.Event `json:"event"`
}

// QueueEvent is the data of a "queue" event.
type QueueEvent struct {
	ThreadID string   `json:"threadId"`
	Queued   []string `json:"queued"`
}

// ThreadsEvent is the data of a "threads" event: the thread list changed.
type ThreadsEvent struct {
	ThreadID string `json:"threadId,omitempty"`
}

// forward turns the broker's envelopes into the desktop window's events;
// it owns sub. It reads in batches so a window that is behind gets what
// is queued at once (the broker coalesces its deltas).
func (a *App) forward(sub *agent.Subscription) {
	defer a.bg.Done()
	defer sub.Close()
	var batch []agent.Envelope
	for {
		var err error
		batch, err = sub.NextBatch(a.bgCtx, batch)
		if err != nil {
			return
		}
		a.emitMu.RLock()
		e := a.emitter
		a.emitMu.RUnlock()
		for _, env := range batch {
			name, data := Frame(env)
			e.Emit(name, data)
			if listChanges(env) {
				e.Emit("threads", ThreadsEvent{ThreadID: env.ThreadID})
			}
		}
	}
}

// Frame is the frontend event an envelope becomes: its name and data.
// The runtime's run events also announce thread-list changes (a run
// started or ended), so the sidebar follows.
func Frame(env agent.Envelope) (string, any) {
	switch env.Name {
	case agent.EnvelopeQueue:
		return "queue", QueueEvent{ThreadID: env.ThreadID, Queued: env.Queued}
	case agent.EnvelopeAGUI:
		return "agui", AGUIEvent{ThreadID: env.ThreadID, Event: env.Event}
	case agent.EnvelopeThreads:
		return "threads", ThreadsEvent{ThreadID: env.ThreadID}
	}
	return env.Name, env.Data
}

// listChanges reports whether an envelope changes the thread list (a run
// started or ended: its running state and order in the sidebar).
func listChanges(env agent.Envelope) bool {
	if env.Name != agent.EnvelopeAGUI {
		return false
	}
	switch env.Event.EventType() {
	case agui.TypeRunStarted, agui.TypeRunFinished, agui.TypeRunError:
		return true
	}
	return false
}

// logRuns logs how each run ended (the desktop smoke test reads it); it
// owns sub.
func (a *App) logRuns(sub *agent.Subscription) {
	defer a.bg.Done()
	defer sub.Close()
	var batch []agent.Envelope
	for {
		var err error
		batch, err = sub.NextBatch(a.bgCtx, batch)
		if err != nil {
			return
		}
		for _, env := range batch {
			if env.Name == agent.EnvelopeAGUI {
				a.logTerminal(env)
			}
		}
	}
}

// logTerminal logs one terminal event.
func (a *App) logTerminal(env agent.Envelope) {
	switch e := env.Event.(type) {
	case *agui.RunFinished:
		out := agui.OutcomeSuccess
		if e.Outcome != nil {
			out = e.Outcome.Type
		}
		a.log.Info("run finished", "thread", env.ThreadID, "run", e.RunID, "outcome", out)
	case *agui.RunError:
		a.log.Warn("run failed", "thread", env.ThreadID, "code", e.Code, "message", e.Message)
	}
}
