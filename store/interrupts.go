package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

const interruptCols = "id, thread_id, run_id, generation, kind, tool_call_id, descriptor, status, response, created_at, resolved_at"

func scanInterrupt(s interface{ Scan(...any) error }) (history.Interrupt, error) {
	var it history.Interrupt
	var desc string
	var resp sql.NullString
	err := s.Scan(&it.ID, &it.ThreadID, &it.RunID, &it.Generation, &it.Kind, &it.ToolCallID, &desc,
		&it.Status, &resp, &it.CreatedAt, &it.ResolvedAt)
	it.Descriptor = json.RawMessage(desc)
	if resp.Valid {
		it.Response = json.RawMessage(resp.String)
	}
	return it, err
}

// PutInterrupts stores interrupts (upsert by id) in one transaction. The
// descriptor is kept byte for byte, so a restart re-emits the same object.
func (db *DB) PutInterrupts(ctx context.Context, its []history.Interrupt) error {
	for _, it := range its {
		if it.ID == "" || it.ThreadID == "" {
			return errors.New("store: put interrupts: empty id or thread id")
		}
		if !json.Valid(it.Descriptor) {
			return fmt.Errorf("store: put interrupt %s: descriptor is not valid JSON", it.ID)
		}
		if len(it.Response) > 0 && !json.Valid(it.Response) {
			return fmt.Errorf("store: put interrupt %s: response is not valid JSON", it.ID)
		}
	}
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		for _, it := range its {
			if it.Status == "" {
				it.Status = history.InterruptPending
			}
			if it.CreatedAt == 0 {
				it.CreatedAt = now
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO interrupts (`+interruptCols+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, generation = excluded.generation,
    kind = excluded.kind, tool_call_id = excluded.tool_call_id, descriptor = excluded.descriptor,
    status = excluded.status, response = excluded.response, created_at = excluded.created_at,
    resolved_at = excluded.resolved_at
WHERE interrupts.thread_id = excluded.thread_id`,
				it.ID, it.ThreadID, it.RunID, it.Generation, it.Kind, it.ToolCallID, string(it.Descriptor),
				string(it.Status), nullJSON(it.Response), it.CreatedAt, it.ResolvedAt)
			if err != nil {
				return fmt.Errorf("interrupt %s: %w", it.ID, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return fmt.Errorf("interrupt %s already belongs to another thread", it.ID)
			}
			if it.Status != history.InterruptPending {
				if err := dropStaged(ctx, tx, it.ThreadID, it.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put interrupts: %w", err)
	}
	return nil
}

// PendingInterrupts returns the thread's pending interrupts in the order
// they were stored.
func (db *DB) PendingInterrupts(ctx context.Context, threadID string) ([]history.Interrupt, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT "+interruptCols+
		" FROM interrupts WHERE thread_id = ? AND status = 'pending' ORDER BY seq", threadID)
	if err != nil {
		return nil, fmt.Errorf("store: pending interrupts of %s: %w", threadID, err)
	}
	defer rows.Close()
	its := []history.Interrupt{}
	for rows.Next() {
		it, err := scanInterrupt(rows)
		if err != nil {
			return nil, fmt.Errorf("store: pending interrupts of %s: %w", threadID, err)
		}
		its = append(its, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pending interrupts of %s: %w", threadID, err)
	}
	return its, nil
}

// Interrupt returns one interrupt, or ErrNotFound.
func (db *DB) Interrupt(ctx context.Context, id string) (history.Interrupt, error) {
	it, err := scanInterrupt(db.r.QueryRowContext(ctx, "SELECT "+interruptCols+" FROM interrupts WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Interrupt{}, fmt.Errorf("store: interrupt %s: %w", id, err)
	}
	return it, nil
}

const clientToolCols = "tool_call_id, thread_id, run_id, tool_name, arguments, state, result, created_at"

func scanClientTool(s interface{ Scan(...any) error }) (history.ClientToolCall, error) {
	var c history.ClientToolCall
	err := s.Scan(&c.ToolCallID, &c.ThreadID, &c.RunID, &c.ToolName, &c.Arguments, &c.State, &c.Result, &c.CreatedAt)
	return c, err
}

// PutClientToolCall stores a frontend-executed tool call (upsert by thread
// and tool call id: the same id in another thread is another call). A call
// stored in a state other than pending loses its staged answer, in the same
// transaction.
func (db *DB) PutClientToolCall(ctx context.Context, c history.ClientToolCall) error {
	if c.ToolCallID == "" || c.ThreadID == "" {
		return errors.New("store: put client tool call: empty tool call id or thread id")
	}
	if c.Arguments == "" {
		c.Arguments = "{}"
	}
	if c.State == "" {
		c.State = history.ClientToolPending
	}
	if c.CreatedAt == 0 {
		c.CreatedAt = db.now()
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO client_tool_calls (`+clientToolCols+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET run_id = excluded.run_id, tool_name = excluded.tool_name,
    arguments = excluded.arguments, state = excluded.state, result = excluded.result,
    created_at = excluded.created_at`,
			c.ToolCallID, c.ThreadID, c.RunID, c.ToolName, c.Arguments, string(c.State), c.Result, c.CreatedAt)
		if err != nil {
			return err
		}
		if c.State != history.ClientToolPending {
			return dropStaged(ctx, tx, c.ThreadID, c.ToolCallID)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put client tool call %s of thread %s: %w", c.ToolCallID, c.ThreadID, err)
	}
	return nil
}

// PendingClientToolCalls returns the thread's pending client tool calls in
// the order they were stored.
func (db *DB) PendingClientToolCalls(ctx context.Context, threadID string) ([]history.ClientToolCall, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT "+clientToolCols+
		" FROM client_tool_calls WHERE thread_id = ? AND state = 'pending' ORDER BY seq", threadID)
	if err != nil {
		return nil, fmt.Errorf("store: pending client tool calls of %s: %w", threadID, err)
	}
	defer rows.Close()
	calls := []history.ClientToolCall{}
	for rows.Next() {
		c, err := scanClientTool(rows)
		if err != nil {
			return nil, fmt.Errorf("store: pending client tool calls of %s: %w", threadID, err)
		}
		calls = append(calls, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pending client tool calls of %s: %w", threadID, err)
	}
	return calls, nil
}

// ClientToolCall returns client tool call toolCallID of a thread, or
// ErrNotFound.
func (db *DB) ClientToolCall(ctx context.Context, threadID, toolCallID string) (history.ClientToolCall, error) {
	c, err := scanClientTool(db.r.QueryRowContext(ctx,
		"SELECT "+clientToolCols+" FROM client_tool_calls WHERE thread_id = ? AND tool_call_id = ?", threadID, toolCallID))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.ClientToolCall{}, fmt.Errorf("store: client tool call %s of thread %s: %w", toolCallID, threadID, err)
	}
	return c, nil
}

// PendingCounts returns, for each of the given threads that waits on the
// person, how many items it waits on: pending interrupts (every one, unbound
// items included: the store does not read bindings) plus pending client
// tool calls. Threads waiting on nothing, and unknown ids, are absent from
// the map. It is one query whatever the number of threads (the ids travel
// as one JSON array), so the thread list pays for it once per page.
func (db *DB) PendingCounts(ctx context.Context, threadIDs []string) (map[string]int, error) {
	counts := map[string]int{}
	if len(threadIDs) == 0 {
		return counts, nil
	}
	ids, err := json.Marshal(threadIDs)
	if err != nil {
		return nil, fmt.Errorf("store: pending counts: %w", err)
	}
	rows, err := db.r.QueryContext(ctx, `WITH ids(id) AS (SELECT DISTINCT value FROM json_each(?1))
SELECT thread_id, count(*) FROM (
    SELECT i.thread_id FROM ids JOIN interrupts i ON i.thread_id = ids.id AND i.status = 'pending'
    UNION ALL
    SELECT c.thread_id FROM ids JOIN client_tool_calls c ON c.thread_id = ids.id AND c.state = 'pending'
) GROUP BY thread_id`, string(ids))
	if err != nil {
		return nil, fmt.Errorf("store: pending counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("store: pending counts: %w", err)
		}
		counts[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pending counts: %w", err)
	}
	return counts, nil
}
