package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

const runCols = "id, thread_id, parent_run_id, generation, status, outcome, steps, started_at, finished_at"

func scanRun(s interface{ Scan(...any) error }) (history.Run, error) {
	var r history.Run
	var outcome sql.NullString
	err := s.Scan(&r.ID, &r.ThreadID, &r.ParentRunID, &r.Generation, &r.Status, &outcome, &r.Steps, &r.StartedAt, &r.FinishedAt)
	if outcome.Valid {
		r.Outcome = json.RawMessage(outcome.String)
	}
	return r, err
}

// PutRun stores a run, or updates it if its id exists (a run keeps its
// thread).
func (db *DB) PutRun(ctx context.Context, r history.Run) error {
	if r.ID == "" || r.ThreadID == "" {
		return errors.New("store: put run: empty id or thread id")
	}
	if len(r.Outcome) > 0 && !json.Valid(r.Outcome) {
		return fmt.Errorf("store: put run %s: outcome is not valid JSON", r.ID)
	}
	if r.Steps < 0 {
		return fmt.Errorf("store: put run %s: negative step count %d", r.ID, r.Steps)
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO runs (`+runCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET parent_run_id = excluded.parent_run_id, generation = excluded.generation,
    status = excluded.status, outcome = excluded.outcome, steps = excluded.steps, started_at = excluded.started_at,
    finished_at = excluded.finished_at
WHERE runs.thread_id = excluded.thread_id`,
			r.ID, r.ThreadID, r.ParentRunID, r.Generation, string(r.Status), nullJSON(r.Outcome), r.Steps, r.StartedAt, r.FinishedAt)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errors.New("run already belongs to another thread")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put run %s: %w", r.ID, err)
	}
	return nil
}

// Run returns one run, or ErrNotFound.
func (db *DB) Run(ctx context.Context, id string) (history.Run, error) {
	r, err := scanRun(db.r.QueryRowContext(ctx, "SELECT "+runCols+" FROM runs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Run{}, fmt.Errorf("store: run %s: %w", id, err)
	}
	return r, nil
}

// LatestRun returns the thread's most recently stored run, or ErrNotFound if
// it has none.
func (db *DB) LatestRun(ctx context.Context, threadID string) (history.Run, error) {
	r, err := scanRun(db.r.QueryRowContext(ctx,
		"SELECT "+runCols+" FROM runs WHERE thread_id = ? ORDER BY seq DESC LIMIT 1", threadID))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Run{}, fmt.Errorf("store: latest run of thread %s: %w", threadID, err)
	}
	return r, nil
}

const toolExecCols = "tool_call_id, thread_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at"

func scanToolExec(s interface{ Scan(...any) error }) (history.ToolExecution, error) {
	var e history.ToolExecution
	err := s.Scan(&e.ToolCallID, &e.ThreadID, &e.RunID, &e.ToolName, &e.Arguments, &e.State,
		&e.Result, &e.IsError, &e.StartedAt, &e.FinishedAt)
	return e, err
}

// BeginToolExecution records that tool call e.ToolCallID of thread
// e.ThreadID is about to run, exactly once (a tool call id is unique only
// within its thread: the same id in another thread is another call): if no record exists it inserts e in state started and
// returns (nil, nil) — the caller may run the tool. If a record exists it
// inserts nothing and returns that record — the caller must not run the tool
// again.
func (db *DB) BeginToolExecution(ctx context.Context, e history.ToolExecution) (*history.ToolExecution, error) {
	if e.ToolCallID == "" || e.ThreadID == "" {
		return nil, errors.New("store: begin tool execution: empty tool call id or thread id")
	}
	if e.Arguments == "" {
		e.Arguments = "{}"
	}
	if e.StartedAt == 0 {
		e.StartedAt = db.now()
	}
	var prior *history.ToolExecution
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO tool_executions (`+toolExecCols+`)
VALUES (?, ?, ?, ?, ?, 'started', '', 0, ?, 0) ON CONFLICT (thread_id, tool_call_id) DO NOTHING`,
			e.ToolCallID, e.ThreadID, e.RunID, e.ToolName, e.Arguments, e.StartedAt)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		p, err := scanToolExec(tx.QueryRowContext(ctx,
			"SELECT "+toolExecCols+" FROM tool_executions WHERE thread_id = ? AND tool_call_id = ?", e.ThreadID, e.ToolCallID))
		if err != nil {
			return err
		}
		prior = &p
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: begin tool execution %s of thread %s: %w", e.ToolCallID, e.ThreadID, err)
	}
	return prior, nil
}

// FinishToolExecution records the outcome of a tool call: state finished
// with e's Result and IsError (FinishedAt defaults to now). It inserts the
// record if BeginToolExecution was never called for it.
func (db *DB) FinishToolExecution(ctx context.Context, e history.ToolExecution) error {
	if e.ToolCallID == "" || e.ThreadID == "" {
		return errors.New("store: finish tool execution: empty tool call id or thread id")
	}
	if e.Arguments == "" {
		e.Arguments = "{}"
	}
	if e.FinishedAt == 0 {
		e.FinishedAt = db.now()
	}
	if e.StartedAt == 0 {
		e.StartedAt = e.FinishedAt
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tool_executions (`+toolExecCols+`)
VALUES (?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?)
ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET state = 'finished', result = excluded.result,
    is_error = excluded.is_error, finished_at = excluded.finished_at`,
			e.ToolCallID, e.ThreadID, e.RunID, e.ToolName, e.Arguments, e.Result, boolInt(e.IsError), e.StartedAt, e.FinishedAt)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: finish tool execution %s of thread %s: %w", e.ToolCallID, e.ThreadID, err)
	}
	return nil
}

// ToolExecution returns the record of tool call toolCallID of a thread, or
// ErrNotFound.
func (db *DB) ToolExecution(ctx context.Context, threadID, toolCallID string) (history.ToolExecution, error) {
	e, err := scanToolExec(db.r.QueryRowContext(ctx,
		"SELECT "+toolExecCols+" FROM tool_executions WHERE thread_id = ? AND tool_call_id = ?", threadID, toolCallID))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.ToolExecution{}, fmt.Errorf("store: tool execution %s of thread %s: %w", toolCallID, threadID, err)
	}
	return e, nil
}
