package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// BenchmarkGetThread is the window's GetThread (path, live state, usage)
// on a 2,000-message linear thread, the anchor, and on a thread whose
// 2,000-message active path has 200 branch points (2,400 messages stored),
// in one run. The branched figure must stay within 1.5× of the linear one.
func BenchmarkGetThread(b *testing.B) {
	dir := b.TempDir()
	svc, err := Start(context.Background(), Config{DataDir: dir, Mode: "browser", Getenv: func(string) string { return "" },
		MCPConfigPath: filepath.Join(dir, "mcp.json"), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	}()
	a := svc.App()
	ctx := context.Background()
	const size, every = 2000, 10
	for _, c := range []struct {
		id       string
		branches bool
	}{{"linear", false}, {"branched", true}} {
		if err := a.db.CreateThread(ctx, history.Thread{ID: c.id}); err != nil {
			b.Fatal(err)
		}
		var msgs []history.Message
		parent := ""
		for i := range size {
			role := history.RoleUser
			if i%2 == 1 {
				role = history.RoleAssistant
			}
			text := fmt.Sprintf("message %d about the failing build, with a few more words to render", i)
			if c.branches && i%every == 5 {
				alt := history.Message{ID: fmt.Sprintf("%s-alt%d", c.id, i), ThreadID: c.id, Role: role, Content: "older: " + text, ParentID: parent}
				msgs = append(msgs, alt, history.Message{ID: alt.ID + "-r", ThreadID: c.id, Role: history.RoleAssistant, Content: "reply", ParentID: alt.ID})
			}
			m := history.Message{ID: fmt.Sprintf("%s-%d", c.id, i), ThreadID: c.id, Role: role, Content: text, ParentID: parent,
				Usage: &history.Usage{PromptTokens: i, CompletionTokens: 5, TotalTokens: i + 5}}
			msgs = append(msgs, m)
			parent = m.ID
		}
		if err := a.db.PutMessages(ctx, msgs); err != nil {
			b.Fatal(err)
		}
	}
	for _, name := range []string{"linear", "branched"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				v, err := a.GetThread(name)
				if err != nil || len(v.Messages) != size {
					b.Fatalf("%d messages, %v", len(v.Messages), err)
				}
			}
		})
	}
}
