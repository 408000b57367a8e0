package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// BenchmarkThreadPath compares reading a 2,000-message active path from a
// linear thread (the anchor: what every thread was before branches) with
// the same path in a thread that has 200 branch points (every tenth
// message has an older sibling version, with an answer of its own under
// it: 2,400 messages stored). Both live in one database, measured in one
// run; the branched read must stay within 1.5× of the linear one.
func BenchmarkThreadPath(b *testing.B) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(b.TempDir(), "paths.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const size, every = 2000, 10
	build := func(id string, branches bool) {
		if err := db.CreateThread(ctx, history.Thread{ID: id}); err != nil {
			b.Fatal(err)
		}
		var msgs []history.Message
		parent := ""
		for i := range size {
			role := history.RoleUser
			if i%2 == 1 {
				role = history.RoleAssistant
			}
			text := fmt.Sprintf("message %d of the build log discussion, with a few more words to read", i)
			if branches && i%every == 5 {
				alt := history.Message{ID: fmt.Sprintf("%s-alt%d", id, i), ThreadID: id, Role: role, Content: "older version: " + text, ParentID: parent}
				msgs = append(msgs, alt, history.Message{ID: alt.ID + "-reply", ThreadID: id, Role: history.RoleAssistant, Content: "reply", ParentID: alt.ID})
			}
			m := history.Message{ID: fmt.Sprintf("%s-%d", id, i), ThreadID: id, Role: role, Content: text, ParentID: parent}
			msgs = append(msgs, m)
			parent = m.ID
		}
		if err := db.PutMessages(ctx, msgs); err != nil {
			b.Fatal(err)
		}
	}
	build("linear", false)
	build("branched", true)
	for _, c := range []struct{ name, thread string }{{"linear", "linear"}, {"branched-200", "branched"}} {
		b.Run(c.name, func(b *testing.B) {
			measure(b, func(int) error {
				msgs, err := db.Messages(ctx, c.thread)
				if err == nil && len(msgs) != size {
					err = fmt.Errorf("%d messages on the path", len(msgs))
				}
				return err
			})
		})
	}
}
