package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store/importers"
)

// The JSON export format.
const (
	ExportFormat = "juncture.thread"
	// ExportVersion 2 keeps the whole tree: every branch's messages with
	// their parentId, and the activeLeaf. Version 1 documents (a linear
	// thread, each message after the one before) are still read.
	// Version 3 adds "attachments": the files the messages reference,
	// each once ({id, mimeType, size, data (base64), text, pages}).
	ExportVersion = 3

	// A larger document is refused before parsing: attachments (up to
	// 50 MiB a message, base64 in the document) make exports large.
	MaxImportBytes    = 128 << 20
	MaxImportMessages = 100_000
	// MaxImportValues are the JSON values (array elements and object
	// members at any depth) of a document, counted before it is decoded:
	// decoding "{}," into a message costs hundreds of bytes, so this and
	// MaxImportMessages, not the size, bound the memory an import takes.
	MaxImportValues = 2_000_000
)

// exportDoc is the versioned JSON document of one thread.
type exportDoc struct {
	Format   string            `json:"format"`
	Version  int               `json:"version"`
	Thread   history.Thread    `json:"thread"`
	Messages []history.Message `json:"messages"`
	// ActiveLeaf is the last message of the path the thread showed.
	ActiveLeaf string `json:"activeLeaf,omitempty"`
	// Attachments are the files the messages reference (version 3).
	Attachments []history.Attachment `json:"attachments,omitempty"`
}

// ExportJSON returns a thread and its messages on every branch as a
// versioned JSON document ({"format":"juncture.thread","version":2,
// "thread":…,"messages":[…],"activeLeaf":…}) that ImportJSON reads back
// exactly.
func (db *DB) ExportJSON(ctx context.Context, threadID string) ([]byte, error) {
	t, msgs, leaf, err := db.threadWithMessages(ctx, threadID, false)
	if err != nil {
		return nil, fmt.Errorf("store: export thread %s: %w", threadID, err)
	}
	var blobs []history.Attachment
	if err := db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		blobs, err = threadAttachments(ctx, tx, threadID)
		return err
	}); err != nil {
		return nil, fmt.Errorf("store: export thread %s: %w", threadID, err)
	}
	t.Options.SystemPrompt = ""
	b, err := json.MarshalIndent(exportDoc{Format: ExportFormat, Version: ExportVersion, Thread: t, Messages: msgs, ActiveLeaf: leaf, Attachments: blobs}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("store: export thread %s: %w", threadID, err)
	}
	return append(b, '\n'), nil
}

// threadWithMessages reads a thread with its active path (activePath) or
// every message, and its active leaf.
func (db *DB) threadWithMessages(ctx context.Context, threadID string, activePath bool) (t history.Thread, msgs []history.Message, leaf string, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanThread(tx.QueryRowContext(ctx, "SELECT "+threadCols+" FROM threads WHERE id = ?", threadID))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		tr, err := db.shownTree(ctx, tx, threadID, false)
		if err != nil {
			return err
		}
		li := tr.leafIndex()
		if li >= 0 {
			leaf = tr.rows[li].m.ID
		}
		if activePath {
			msgs, err = tr.path(li)
			return err
		}
		msgs = make([]history.Message, len(tr.rows))
		for i := range tr.rows {
			if msgs[i], err = tr.rows[i].decode(); err != nil {
				return err
			}
		}
		return nil
	})
	return t, msgs, leaf, err
}

// ExportMarkdown renders a thread for people: the title, then each message
// under a role heading, reasoning as a quote, tool calls and results as
// fenced code, and an interrupted message marked "_(interrupted)_". It
// writes the active path: the conversation as the person last saw it.
func (db *DB) ExportMarkdown(ctx context.Context, threadID string) (string, error) {
	t, msgs, _, err := db.threadWithMessages(ctx, threadID, true)
	if err != nil {
		return "", fmt.Errorf("store: export thread %s: %w", threadID, err)
	}
	return renderMarkdown(t, msgs), nil
}

func renderMarkdown(t history.Thread, msgs []history.Message) string {
	var b strings.Builder
	title := strings.TrimSpace(t.Title)
	if title == "" {
		title = "Untitled conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(title))
	fmt.Fprintf(&b, "_Exported from Juncture. Started %s._\n", formatTime(t.CreatedAt))
	for _, m := range msgs {
		b.WriteString("\n")
		switch m.Role {
		case history.RoleUser:
			b.WriteString("## You\n\n")
			for _, f := range m.Attachments {
				// The files are in the JSON export, not here: name them.
				fmt.Fprintf(&b, "_Attached: %s (%s, %d bytes)_\n\n", oneLine(f.Name), f.MimeType, f.Size)
			}
		case history.RoleAssistant:
			b.WriteString("## Assistant\n\n")
		case history.RoleSystem:
			b.WriteString("## System\n\n")
		case history.RoleTool:
			name := m.ToolName
			if name == "" {
				name = "tool"
			}
			fmt.Fprintf(&b, "## Tool result: `%s`", oneLine(name))
			if m.IsError {
				b.WriteString(" (error)")
			}
			b.WriteString("\n\n")
			writeFence(&b, "", m.Content)
			continue
		}
		if m.Reasoning != "" {
			b.WriteString("> **Reasoning**\n>\n")
			for _, line := range strings.Split(strings.TrimRight(m.Reasoning, "\n"), "\n") {
				b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
			}
			b.WriteString("\n")
		}
		content, interrupted := history.StripMarker(m.Content)
		interrupted = interrupted || m.Status == history.StatusInterrupted
		if content != "" {
			b.WriteString(strings.TrimRight(content, "\n"))
			b.WriteString("\n\n")
		}
		if interrupted {
			b.WriteString("_(interrupted)_\n\n")
		}
		if m.Status == history.StatusError {
			fmt.Fprintf(&b, "_(error: %s)_\n\n", oneLine(m.Error))
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "**Tool call:** `%s`\n\n", oneLine(c.Name))
			writeFence(&b, "json", prettyJSON(c.Arguments))
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// writeFence writes text as a fenced code block whose fence is longer than
// any run of backticks inside it.
func writeFence(b *strings.Builder, lang, text string) {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence + lang + "\n")
	b.WriteString(strings.TrimRight(text, "\n"))
	b.WriteString("\n" + fence + "\n\n")
}

func prettyJSON(s string) string {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(s), "", "  "); err != nil {
		return s
	}
	return out.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func formatTime(ms int64) string {
	if ms == 0 {
		return "at an unknown time"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04 UTC")
}

// ImportJSON reads a document written by ExportJSON and stores it as a
// thread, all in one transaction (nothing is stored if anything is wrong).
// If the thread id or any message id is already in use, the thread is
// imported as a new one with fresh ids, tool-call links kept. A message
// still streaming in the document is stored as interrupted. Problems with
// the document wrap ErrInvalidImport.
//
// Each vet, when given, sees the document's messages and files after they
// were checked and before anything is written; it may rewrite them in
// place (a file's type read from its bytes, a sanitized name), and an
// error from it refuses the import (wrapped in ErrInvalidImport).
func (db *DB) ImportJSON(ctx context.Context, data []byte, vets ...ImportVet) (history.Thread, error) {
	doc, err := parseImport(data)
	if err != nil {
		return history.Thread{}, fmt.Errorf("store: import: %w", err)
	}
	for _, vet := range vets {
		if err := vet(doc.Messages, doc.Attachments); err != nil {
			return history.Thread{}, fmt.Errorf("store: import: %w: %w", ErrInvalidImport, err)
		}
	}
	t := doc.Thread
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		taken, err := importCollides(ctx, tx, doc)
		if err != nil {
			return err
		}
		t = doc.Thread
		msgs, leaf := doc.Messages, doc.ActiveLeaf
		if taken {
			t, msgs, leaf = freshIDs(t, msgs, leaf)
		}
		if err := insertThread(ctx, tx, t, false); err != nil {
			return err
		}
		if err := putBlobs(ctx, tx, doc.Attachments); err != nil {
			return err
		}
		return importTree(ctx, tx, t.ID, msgs, leaf)
	})
	if err != nil {
		return history.Thread{}, fmt.Errorf("store: import thread %s: %w", doc.Thread.ID, err)
	}
	return t, nil
}

// ImportVet vets an imported document's messages and files before the
// store writes anything (the app checks files the way it checks sent
// ones: the store does not parse them).
type ImportVet func(msgs []history.Message, files []history.Attachment) error

// importTree stores a document's messages (parents before children, as
// parseImport checked) in their tree, and makes leaf the active leaf (the
// last message when the document names none).
func importTree(ctx context.Context, tx *sql.Tx, threadID string, msgs []history.Message, leaf string) error {
	// Messages go in by runs that name their parents (one prepared
	// statement per run); a first message starts a new run after the leaf
	// is cleared, so it follows no one.
	for start := 0; start < len(msgs); {
		end := start + 1
		for end < len(msgs) && msgs[end].ParentID != "" {
			end++
		}
		if msgs[start].ParentID == "" {
			if _, err := advanceLeaf(ctx, tx, threadID, ""); err != nil {
				return err
			}
		}
		if err := putMessages(ctx, tx, msgs[start:end], 0, false); err != nil {
			return err
		}
		start = end
	}
	if leaf == "" && len(msgs) > 0 {
		leaf = msgs[len(msgs)-1].ID
	}
	return setLeaf(ctx, tx, threadID, leaf)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidImport, fmt.Sprintf(format, args...))
}

// parseImport decodes and validates an export document.
func parseImport(data []byte) (exportDoc, error) {
	if len(data) > MaxImportBytes {
		return exportDoc{}, invalid("the file is %d MiB; at most %d MiB can be imported", len(data)>>20, MaxImportBytes>>20)
	}
	// Counted before anything is decoded (issue 19: budgets first). The
	// counts of a document that is not JSON mean nothing: one over a
	// budget is refused as not JSON when it is not (the decoding below
	// refuses it the same way otherwise), so a valid document is scanned
	// once less.
	values, msgs := importers.Shape(data, "messages")
	if msgs > MaxImportMessages || values > MaxImportValues {
		if !json.Valid(data) {
			var v any
			return exportDoc{}, invalid("not a JSON document (%v)", json.Unmarshal(data, &v))
		}
		if msgs > MaxImportMessages {
			return exportDoc{}, invalid("%d messages; at most %d can be imported", msgs, MaxImportMessages)
		}
		return exportDoc{}, invalid("more than %d JSON values; at most %d can be imported", MaxImportValues, MaxImportValues)
	}
	var head struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return exportDoc{}, invalid("not a JSON document (%v)", err)
	}
	switch {
	case head.Format == nil:
		return exportDoc{}, invalid(`missing "format": not a Juncture thread export`)
	case *head.Format != ExportFormat:
		return exportDoc{}, invalid("format %q is not a Juncture thread export (%q)", *head.Format, ExportFormat)
	case head.Version == nil:
		return exportDoc{}, invalid(`missing "version"`)
	case *head.Version > ExportVersion:
		return exportDoc{}, invalid("export version %d was written by a newer Juncture; this one reads version %d", *head.Version, ExportVersion)
	case *head.Version < 1:
		return exportDoc{}, invalid("unknown export version %d", *head.Version)
	}
	var doc exportDoc
	var body struct {
		Thread      *history.Thread      `json:"thread"`
		Messages    *[]history.Message   `json:"messages"`
		ActiveLeaf  string               `json:"activeLeaf"`
		Attachments []history.Attachment `json:"attachments"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		return exportDoc{}, invalid("%v", err)
	}
	if body.Thread == nil {
		return exportDoc{}, invalid(`missing "thread"`)
	}
	if body.Messages == nil {
		return exportDoc{}, invalid(`missing "messages"`)
	}
	doc.Format, doc.Version, doc.Thread, doc.Messages = ExportFormat, ExportVersion, *body.Thread, *body.Messages
	doc.ActiveLeaf = body.ActiveLeaf
	doc.Attachments = body.Attachments
	t := &doc.Thread
	t.Options.SystemPrompt = ""
	if t.ID == "" {
		return exportDoc{}, invalid("the thread has no id")
	}
	if len(doc.Messages) > MaxImportMessages {
		return exportDoc{}, invalid("%d messages; at most %d can be imported", len(doc.Messages), MaxImportMessages)
	}
	if t.CreatedAt == 0 && len(doc.Messages) > 0 {
		t.CreatedAt = doc.Messages[0].CreatedAt
	}
	if t.UpdatedAt < t.CreatedAt {
		t.UpdatedAt = t.CreatedAt
	}
	ids := make(map[string]bool, len(doc.Messages))
	calls := make(map[string]bool)
	for i := range doc.Messages {
		m := &doc.Messages[i]
		if m.ThreadID == "" {
			m.ThreadID = t.ID
		}
		if m.ThreadID != t.ID {
			return exportDoc{}, invalid("message %d (%s) belongs to thread %q, not %q", i+1, m.ID, m.ThreadID, t.ID)
		}
		if err := checkMessage(m); err != nil {
			return exportDoc{}, invalid("message %d: %v", i+1, err)
		}
		if ids[m.ID] {
			return exportDoc{}, invalid("message id %s appears twice", m.ID)
		}
		m.Branch = nil
		switch {
		case *head.Version == 1 && i > 0:
			// A version 1 thread is linear: each message follows the one before.
			m.ParentID = doc.Messages[i-1].ID
		case *head.Version == 1:
			m.ParentID = ""
		case m.ParentID != "" && !ids[m.ParentID]:
			return exportDoc{}, invalid("message %d (%s): its parent %s is not an earlier message of the thread", i+1, m.ID, m.ParentID)
		}
		ids[m.ID] = true
		if m.Role == history.RoleTool && m.ToolCallID == "" {
			return exportDoc{}, invalid("tool message %s has no toolCallId", m.ID)
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				return exportDoc{}, invalid("message %s has a tool call without id", m.ID)
			}
			if calls[c.ID] {
				return exportDoc{}, invalid("tool call id %s appears twice", c.ID)
			}
			calls[c.ID] = true
		}
		if m.Usage != nil && (m.Usage.PromptTokens < 0 || m.Usage.CompletionTokens < 0 || m.Usage.TotalTokens < 0) {
			return exportDoc{}, invalid("message %d (%s): negative token usage", i+1, m.ID)
		}
		if m.Status == history.StatusStreaming {
			// Nothing will ever finish it: store it the way Recover would.
			m.Status = history.StatusInterrupted
			m.Content = history.WithMarker(m.Content)
		}
	}
	if err := checkImportAttachments(doc.Attachments, doc.Messages); err != nil {
		return exportDoc{}, err
	}
	if doc.ActiveLeaf != "" && !ids[doc.ActiveLeaf] {
		return exportDoc{}, invalid("activeLeaf %s is not a message of the thread", doc.ActiveLeaf)
	}
	return doc, nil
}

// importCollides reports whether the document's thread id or any message id
// is already used.
func importCollides(ctx context.Context, tx *sql.Tx, doc exportDoc) (bool, error) {
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM threads WHERE id = ?", doc.Thread.ID).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return true, nil
	}
	stmt, err := tx.PrepareContext(ctx, "SELECT count(*) FROM messages WHERE id = ?")
	if err != nil {
		return false, err
	}
	defer stmt.Close()
	for _, m := range doc.Messages {
		if err := stmt.QueryRowContext(ctx, m.ID).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}

// freshIDs gives the thread, its messages, runs and tool calls new ids,
// keeping every tool result linked to its call and every message to its
// parent; leaf is the active leaf, renamed the same way.
func freshIDs(t history.Thread, msgs []history.Message, leaf string) (history.Thread, []history.Message, string) {
	t.ID = newID()
	mapped := make(map[string]string)
	remap := func(kind, id string) string {
		if id == "" {
			return ""
		}
		if n, ok := mapped[kind+id]; ok {
			return n
		}
		n := newID()
		mapped[kind+id] = n
		return n
	}
	out := make([]history.Message, len(msgs))
	for i, m := range msgs {
		m.ID = remap("msg:", m.ID)
		m.ParentID = remap("msg:", m.ParentID)
		m.ThreadID = t.ID
		m.RunID = remap("run:", m.RunID)
		m.ToolCallID = remap("call:", m.ToolCallID)
		if len(m.ToolCalls) > 0 {
			calls := make([]history.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.ID = remap("call:", c.ID)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return t, out, remap("msg:", leaf)
}
