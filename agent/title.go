package agent

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// titleTimeout bounds how long the model may take to name a thread.
const titleTimeout = 20 * time.Second

// afterRun is what the runtime does once a run has settled: name an
// untitled thread after its first exchange.
func (rt *Runtime) afterRun(threadID string, term agui.Event) {
	if rt.opts.Titles == nil || term == nil {
		return
	}
	if _, ok := term.(*agui.RunFinished); !ok {
		if _, failed := term.(*agui.RunError); !failed {
			return
		}
	}
	th, err := rt.opts.Titles.Thread(rt.baseCx, threadID)
	if err != nil || th.Title != "" {
		return
	}
	msgs, err := rt.st.Messages(rt.baseCx, threadID)
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
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return
	}
	rt.turns.Add(1)
	rt.mu.Unlock()
	go func() {
		defer rt.turns.Done()
		title := fallbackTitle(first)
		if answer != "" {
			if t := rt.askTitle(threadID, first, answer); t != "" {
				title = t
			}
		}
		if err := rt.opts.Titles.RenameThread(context.WithoutCancel(rt.baseCx), threadID, title); err != nil {
			rt.log.Warn("naming a thread", "thread", threadID, "err", err)
			return
		}
		rt.events.Publish(broker.Envelope{Name: broker.EnvelopeThreads, ThreadID: threadID})
	}()
}

// askTitle asks the model for a short title ("" when it cannot or gives a
// silly one).
func (rt *Runtime) askTitle(threadID, first, answer string) string {
	m, err := rt.opts.Model(rt.bgCx, threadID)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(rt.bgCx, titleTimeout)
	defer cancel()
	req := model.Request{
		System: "Write a short title (3 to 6 words) for this conversation. Reply with the title only, no quotes, no punctuation at the end.",
		Messages: []history.Message{
			{Role: history.RoleUser, Content: "Person: " + Clip(first, 1000) + "\n\nAssistant: " + Clip(answer, 1000) + "\n\nTitle:"},
		},
	}
	var b strings.Builder
	for d, err := range m.Deltas(ctx, req) {
		if err != nil {
			return ""
		}
		b.WriteString(d.Text)
		if b.Len() > 400 {
			break
		}
	}
	return cleanTitle(b.String())
}

// Clip cuts s to at most n bytes on a character boundary, marking the cut.
func Clip(s string, n int) string {
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
	return Clip(t, 80)
}

func cleanTitle(t string) string {
	t = strings.TrimSpace(strings.Split(strings.TrimSpace(t), "\n")[0])
	// The model's text names the chat and its export: no control, bidi
	// or other invisible format character stays in it.
	t = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, t)
	t = strings.TrimSpace(t)
	t = strings.Trim(t, "\"'`*# ")
	t = strings.TrimPrefix(t, "Title: ")
	if t == "" || len(t) > 100 || len(strings.Fields(t)) > 12 {
		return ""
	}
	return t
}
