package app

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
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

// forward turns runtime envelopes into frontend events; it owns sub.
func (a *App) forward(sub *agent.Subscription) {
	defer a.bg.Done()
	defer sub.Close()
	for {
		env, err := sub.Next(a.bgCtx)
		if err != nil {
			return
		}
		switch env.Name {
		case agent.EnvelopeQueue:
			a.emit("queue", QueueEvent{ThreadID: env.ThreadID, Queued: env.Queued})
		case agent.EnvelopeAGUI:
			a.emit("agui", AGUIEvent{ThreadID: env.ThreadID, Event: env.Event})
			switch env.Event.EventType() {
			case agui.TypeRunStarted:
				a.emit("threads", ThreadsEvent{ThreadID: env.ThreadID})
			case agui.TypeRunFinished, agui.TypeRunError:
				a.logTerminal(env)
				a.emit("threads", ThreadsEvent{ThreadID: env.ThreadID})
				a.maybeTitle(env.ThreadID)
			}
		}
	}
}

// maybeTitle names an untitled thread after its first exchange: the model
// is asked for a short title; the first words of the person's message are
// the fallback (no endpoint, an error, or a silly answer).
func (a *App) maybeTitle(threadID string) {
	if a.readOnly != "" {
		return
	}
	th, err := a.db.Thread(a.bgCtx, threadID)
	if err != nil || th.Title != "" {
		return
	}
	msgs, err := a.db.Messages(a.bgCtx, threadID)
	if err != nil {
		return
	}
	var first, answer string
	for _, m := range msgs {
		if m.Role == history.RoleUser && first == "" {
			first = m.Content
		}
		if m.Role == history.RoleAssistant && m.Content != "" && answer == "" {
			answer, _ = history.StripMarker(m.Content)
		}
	}
	if first == "" {
		return
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		title := fallbackTitle(first)
		if c, err := a.modelClient(); err == nil && answer != "" {
			ctx, cancel := context.WithTimeout(a.bgCtx, 20*time.Second)
			t, err := c.Complete(ctx, model.Request{
				System: "Write a short title (3 to 6 words) for this conversation. Reply with the title only, no quotes, no punctuation at the end.",
				Messages: []history.Message{
					{Role: history.RoleUser, Content: "Person: " + clip(first, 1000) + "\n\nAssistant: " + clip(answer, 1000) + "\n\nTitle:"},
				},
			})
			cancel()
			if t = cleanTitle(t); err == nil && t != "" {
				title = t
			}
		}
		if err := a.db.RenameThread(context.WithoutCancel(a.bgCtx), threadID, title); err != nil {
			a.log.Warn("naming a thread", "thread", threadID, "err", err)
			return
		}
		a.emit("threads", ThreadsEvent{ThreadID: threadID})
	}()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// fallbackTitle is the first words of the person's message.
func fallbackTitle(s string) string {
	words := strings.Fields(s)
	if len(words) > 7 {
		words = append(words[:7], "…")
	}
	t := strings.Join(words, " ")
	if t == "" {
		return "New chat"
	}
	return clip(t, 80)
}

func cleanTitle(t string) string {
	t = strings.TrimSpace(strings.Split(strings.TrimSpace(t), "\n")[0])
	t = strings.Trim(t, "\"'`*# ")
	t = strings.TrimPrefix(t, "Title: ")
	if t == "" || len(t) > 100 || len(strings.Fields(t)) > 12 {
		return ""
	}
	return t
}

// logTerminal logs how each run ended (the desktop smoke test reads it).
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
