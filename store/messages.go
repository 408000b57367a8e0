package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

const messageCols = "id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, tool_state, parts, status, error, created_at, parent_id, usage, model, attachments"

// messageRow is a scanned message whose JSON columns are decoded only when
// it is used: reading a thread scans every branch, and only the active
// path's messages are decoded.
type messageRow struct {
	m                   history.Message
	calls, parts, usage sql.NullString
	atts                sql.NullString
	activeAt            int64
}

func (r *messageRow) dest() []any {
	m := &r.m
	return []any{&m.ID, &m.ThreadID, &m.RunID, &m.Role, &m.Content, &m.Reasoning, &r.calls,
		&m.ToolCallID, &m.ToolName, &m.IsError, &m.ToolState, &r.parts, &m.Status, &m.Error, &m.CreatedAt,
		&m.ParentID, &r.usage, &m.Model, &r.atts}
}

// decode returns the message with its JSON columns read.
func (r *messageRow) decode() (history.Message, error) {
	m := r.m
	if r.parts.Valid && r.parts.String != "" {
		if err := json.Unmarshal([]byte(r.parts.String), &m.Parts); err != nil {
			return m, fmt.Errorf("message %s: parts: %w", m.ID, err)
		}
	}
	if r.calls.Valid && r.calls.String != "" {
		if err := json.Unmarshal([]byte(r.calls.String), &m.ToolCalls); err != nil {
			return m, fmt.Errorf("message %s: tool calls: %w", m.ID, err)
		}
	}
	if r.atts.Valid && r.atts.String != "" {
		if err := json.Unmarshal([]byte(r.atts.String), &m.Attachments); err != nil {
			return m, fmt.Errorf("message %s: attachments: %w", m.ID, err)
		}
	}
	if r.usage.Valid {
		u, err := decodeUsage(r.usage.String)
		if err != nil {
			return m, fmt.Errorf("message %s: %w", m.ID, err)
		}
		m.Usage = &u
	}
	return m, nil
}

func scanMessage(s interface{ Scan(...any) error }) (history.Message, error) {
	var r messageRow
	if err := s.Scan(r.dest()...); err != nil {
		return r.m, err
	}
	return r.decode()
}

// Messages returns the thread's active path: from its first message to
// its active leaf, each message after its parent, with Branch set on the
// messages that have siblings. It returns ErrNotFound if there is no such
// thread. This is what the model reads and the window shows.
func (db *DB) Messages(ctx context.Context, threadID string) ([]history.Message, error) {
	var msgs []history.Message
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		t, err := db.shownTree(ctx, tx, threadID, false)
		if err != nil {
			return err
		}
		msgs, err = t.path(t.leafIndex())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: messages of thread %s: %w", threadID, err)
	}
	return msgs, nil
}

// AllMessages returns every message of a thread, on every branch, in the
// order they were stored (a parent always before its children), with
// ParentID set and Branch not. ErrNotFound if there is no such thread.
func (db *DB) AllMessages(ctx context.Context, threadID string) ([]history.Message, error) {
	var msgs []history.Message
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		if err := threadExists(ctx, tx, threadID); err != nil {
			return err
		}
		var err error
		msgs, err = queryMessages(ctx, tx, "SELECT "+messageCols+" FROM messages WHERE thread_id = ? ORDER BY seq", threadID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: all messages of thread %s: %w", threadID, err)
	}
	return msgs, nil
}

func threadExists(ctx context.Context, tx *sql.Tx, threadID string) error {
	var one int
	if err := tx.QueryRowContext(ctx, "SELECT 1 FROM threads WHERE id = ?", threadID).Scan(&one); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return err
	}
	return nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func queryMessages(ctx context.Context, q querier, query string, args ...any) ([]history.Message, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	msgs := []history.Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, rows.Err()
}

// Message returns one message, or ErrNotFound.
func (db *DB) Message(ctx context.Context, id string) (history.Message, error) {
	m, err := scanMessage(db.r.QueryRowContext(ctx, "SELECT "+messageCols+" FROM messages WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Message{}, fmt.Errorf("store: message %s: %w", id, err)
	}
	return m, nil
}

// PutMessage stores a message: inserted at the end of its thread if its id
// is new, otherwise updated in place (keeping its position). It counts as
// activity on the thread, which must exist (ErrNotFound otherwise). A
// message id belongs to one thread for ever: updating it with another
// ThreadID is an error.
func (db *DB) PutMessage(ctx context.Context, m history.Message) error {
	return db.PutMessages(ctx, []history.Message{m})
}

// PutMessages stores several messages, in order, in one transaction: all of
// them or none.
func (db *DB) PutMessages(ctx context.Context, msgs []history.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	msgs = slices.Clone(msgs) // checkMessage fills defaults
	for i := range msgs {
		if err := checkMessage(&msgs[i]); err != nil {
			return fmt.Errorf("store: put message %s: %w", msgs[i].ID, err)
		}
	}
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		return putMessages(ctx, tx, msgs, now, false)
	})
	if err != nil {
		if len(msgs) == 1 {
			return fmt.Errorf("store: put message %s: %w", msgs[0].ID, err)
		}
		return fmt.Errorf("store: put %d messages: %w", len(msgs), err)
	}
	return nil
}

// checkMessage validates m and fills the defaults the schema relies on.
func checkMessage(m *history.Message) error {
	if m.ID == "" {
		return errors.New("empty message id")
	}
	if m.ThreadID == "" {
		return errors.New("empty thread id")
	}
	switch m.Role {
	case history.RoleUser, history.RoleAssistant, history.RoleTool, history.RoleSystem:
	default:
		return fmt.Errorf("unknown role %q", m.Role)
	}
	switch m.Status {
	case "":
		m.Status = history.StatusComplete
	case history.StatusComplete, history.StatusStreaming, history.StatusInterrupted, history.StatusError:
	default:
		return fmt.Errorf("unknown status %q", m.Status)
	}
	return nil
}

// The upsert never moves a message in the tree: parent_id and active_at
// are written on insert only.
const upsertMessage = `INSERT INTO messages (` + messageCols + `, active_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    run_id = excluded.run_id, role = excluded.role, content = excluded.content,
    reasoning = excluded.reasoning, tool_calls = excluded.tool_calls,
    tool_call_id = excluded.tool_call_id, tool_name = excluded.tool_name,
    is_error = excluded.is_error, tool_state = excluded.tool_state, parts = excluded.parts, status = excluded.status, error = excluded.error,
    created_at = excluded.created_at, usage = excluded.usage, model = excluded.model,
    attachments = coalesce(excluded.attachments, messages.attachments)
WHERE messages.thread_id = excluded.thread_id`

// A streaming snapshot never replaces a message that is no longer
// streaming: the final state written by Commit (or anyone) wins over a
// snapshot that arrives late.
const upsertSnapshot = upsertMessage + ` AND messages.status = 'streaming'`

// putMessages writes msgs (already checked) and, unless now is 0, records
// activity at now on their threads (which must exist).
// snapshot selects the streaming-snapshot rule above; a snapshot that loses
// to a final state is skipped silently.
func putMessages(ctx context.Context, tx *sql.Tx, msgs []history.Message, now int64, snapshot bool) error {
	q := upsertMessage
	if snapshot {
		q = upsertSnapshot
	}
	stmt, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	defer stmt.Close()
	touched := make(map[string]bool)
	for _, m := range msgs {
		if now != 0 && !touched[m.ThreadID] {
			if err := touchThread(ctx, tx, m.ThreadID, now); err != nil {
				return err
			}
			touched[m.ThreadID] = true
		}
		calls, err := encodeToolCalls(m.ToolCalls)
		if err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		parts, err := encodeParts(m.Parts)
		if err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		atts, err := encodeAttachmentRefs(m.Attachments)
		if err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		var usage any // NULL: not reported
		if u := m.Usage; u != nil {
			usage = encodeUsage(*u)
		}
		parent, activeAt, err := placeMessage(ctx, tx, m)
		if err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		res, err := stmt.ExecContext(ctx, m.ID, m.ThreadID, m.RunID, string(m.Role), m.Content, m.Reasoning, calls,
			m.ToolCallID, m.ToolName, boolInt(m.IsError), m.ToolState, parts, string(m.Status), m.Error, m.CreatedAt,
			parent, usage, m.Model, atts, activeAt)
		if err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 && !snapshot {
			return fmt.Errorf("message %s already belongs to another thread", m.ID)
		}
		if err := linkAttachments(ctx, tx, m); err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
	}
	return nil
}

// encodeUsage is the stored form of a token count: "prompt completion total".
func encodeUsage(u history.Usage) string {
	return strconv.Itoa(u.PromptTokens) + " " + strconv.Itoa(u.CompletionTokens) + " " + strconv.Itoa(u.TotalTokens)
}

func decodeUsage(s string) (history.Usage, error) {
	var n [3]int
	rest := s
	for i := range n {
		var f string
		f, rest, _ = strings.Cut(rest, " ")
		v, err := strconv.Atoi(f)
		if err != nil {
			return history.Usage{}, fmt.Errorf("usage %q: %w", s, err)
		}
		n[i] = v
	}
	return history.Usage{PromptTokens: n[0], CompletionTokens: n[1], TotalTokens: n[2]}, nil
}

// encodeParts stores a tool result's parts as a JSON array (NULL when none).
func encodeParts(parts []history.Part) (any, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(parts)
	if err != nil {
		return nil, fmt.Errorf("parts: %w", err)
	}
	return string(b), nil
}

// encodeToolCalls stores tool calls as a JSON array (NULL when none), with
// empty arguments stored as "{}" as history.ToolCall documents.
func encodeToolCalls(calls []history.ToolCall) (any, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	norm := make([]history.ToolCall, len(calls))
	for i, c := range calls {
		if c.Arguments == "" {
			c.Arguments = "{}"
		}
		norm[i] = c
	}
	b, err := json.Marshal(norm)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
