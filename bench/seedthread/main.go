// Command seedthread writes one long thread into a Juncture database, the
// way ImportThread would (store.ImportJSON of a generated export document),
// for the desktop memory bench (scripts/bench-desktop.sh). The app must not
// be running on that database.
//
//	seedthread -db $XDG_DATA_HOME/juncture/juncture.db -messages 2000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

func main() {
	dbPath := flag.String("db", "", "the database file (created if missing)")
	n := flag.Int("messages", 2000, "messages in the thread (alternating person and assistant)")
	title := flag.String("title", "Bench long thread", "the thread's title")
	flag.Parse()
	if *dbPath == "" {
		fmt.Fprintln(os.Stderr, "seedthread: -db is required")
		os.Exit(2)
	}
	if err := run(*dbPath, *n, *title); err != nil {
		fmt.Fprintln(os.Stderr, "seedthread:", err)
		os.Exit(1)
	}
}

func run(path string, n int, title string) error {
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	now := time.Now().UnixMilli() - int64(n)*1000
	id := fmt.Sprintf("thread-bench%016x", now)
	msgs := make([]history.Message, 0, n)
	for i := range n {
		m := history.Message{ID: fmt.Sprintf("msg-bench-%06d", i), ThreadID: id, Status: history.StatusComplete, CreatedAt: now + int64(i)*1000}
		if i%2 == 0 {
			m.Role, m.Content = history.RoleUser, fmt.Sprintf("Question %d: how do I do thing number %d?", i/2, i/2)
		} else {
			m.Role, m.RunID = history.RoleAssistant, fmt.Sprintf("run-bench-%06d", i/2)
			m.Content = answer(i / 2)
		}
		msgs = append(msgs, m)
	}
	doc := map[string]any{
		"format": store.ExportFormat, "version": store.ExportVersion,
		"thread":   history.Thread{ID: id, Title: title, CreatedAt: now, UpdatedAt: now + int64(n)*1000},
		"messages": msgs,
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	t, err := db.ImportJSON(ctx, b)
	if err != nil {
		return err
	}
	fmt.Println(t.ID)
	return nil
}

// answer is a Markdown answer of a few paragraphs, a list, and every fifth
// one a code block (so the long thread exercises the highlighter too).
func answer(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Here is answer **%d**. ", i)
	b.WriteString(strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 6))
	b.WriteString("\n\n- first step\n- second step with `inline code`\n- third step\n\n")
	if i%5 == 0 {
		fmt.Fprintf(&b, "```go\nfunc step%d(x int) int {\n\treturn x * %d // comment\n}\n```\n\n", i, i)
	}
	b.WriteString(strings.Repeat("Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ", 4))
	return b.String()
}
