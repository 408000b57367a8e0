package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// Round trips (schema v7, migrations/0007_round_trips.sql): a tool call
// that answered "I need the person first" (MCP 2026-07-28's
// input_required) waits with nothing open anywhere. Its questions, its
// state and its execution's move to awaiting_input are written together,
// so a crash leaves either a plain running call (settled by Recover) or a
// question that is shown again after the restart and retries the call
// when answered.

// PauseRoundTrip stores a call's questions (pending interrupts bound to
// it) and the state its retry needs, and moves its execution from
// started to awaiting_input, in one transaction. The execution must be
// started (ErrNotFound otherwise: the call already has its result).
func (db *DB) PauseRoundTrip(ctx context.Context, rt history.RoundTrip, its []history.Interrupt) error {
	if rt.ThreadID == "" || rt.ToolCallID == "" || len(its) == 0 {
		return errors.New("store: pause round trip: empty thread, call or questions")
	}
	if !json.Valid(rt.State) {
		return errors.New("store: pause round trip: the state is not valid JSON")
	}
	keys, err := json.Marshal(rt.Keys)
	if err != nil {
		return fmt.Errorf("store: pause round trip: %w", err)
	}
	for _, it := range its {
		if it.ID == "" || it.ThreadID != rt.ThreadID || it.ToolCallID != rt.ToolCallID || !json.Valid(it.Descriptor) {
			return fmt.Errorf("store: pause round trip: question %q does not belong to the call or is not valid", it.ID)
		}
	}
	now := db.now()
	if rt.CreatedAt == 0 {
		rt.CreatedAt = now
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			"UPDATE tool_executions SET state = 'awaiting_input' WHERE thread_id = ? AND tool_call_id = ? AND state = 'started'",
			rt.ThreadID, rt.ToolCallID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tool_round_trips (thread_id, tool_call_id, state, request_keys, rounds, created_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET state = excluded.state, request_keys = excluded.request_keys,
    rounds = excluded.rounds, created_at = excluded.created_at`,
			rt.ThreadID, rt.ToolCallID, string(rt.State), string(keys), rt.Rounds, rt.CreatedAt); err != nil {
			return err
		}
		for _, it := range its {
			if it.CreatedAt == 0 {
				it.CreatedAt = now
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO interrupts (`+interruptCols+`)
VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL, ?, 0)`,
				it.ID, it.ThreadID, it.RunID, it.Generation, it.Kind, it.ToolCallID, string(it.Descriptor), it.CreatedAt); err != nil {
				return fmt.Errorf("interrupt %s: %w", it.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: pause round trip of call %s in thread %s: %w", rt.ToolCallID, rt.ThreadID, err)
	}
	return nil
}

// TakeRoundTrip claims a waiting call for its retry by run runID: its
// execution moves from awaiting_input back to started (so a crash during
// the retry is settled like any call that was running) and its round
// trip is returned and removed. Only one claim succeeds; a call that is
// not waiting gives ErrNotFound.
func (db *DB) TakeRoundTrip(ctx context.Context, threadID, toolCallID, runID string) (history.RoundTrip, error) {
	rt := history.RoundTrip{ThreadID: threadID, ToolCallID: toolCallID}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			"UPDATE tool_executions SET state = 'started', run_id = ? WHERE thread_id = ? AND tool_call_id = ? AND state = 'awaiting_input'",
			runID, threadID, toolCallID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotFound
		}
		var state, keys string
		if err := tx.QueryRowContext(ctx,
			"SELECT state, request_keys, rounds, created_at FROM tool_round_trips WHERE thread_id = ? AND tool_call_id = ?",
			threadID, toolCallID).Scan(&state, &keys, &rt.Rounds, &rt.CreatedAt); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		rt.State = []byte(state)
		if err := json.Unmarshal([]byte(keys), &rt.Keys); err != nil {
			return fmt.Errorf("reading the request keys: %w", err)
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM tool_round_trips WHERE thread_id = ? AND tool_call_id = ?", threadID, toolCallID)
		return err
	})
	if err != nil {
		return history.RoundTrip{}, fmt.Errorf("store: take round trip of call %s in thread %s: %w", toolCallID, threadID, err)
	}
	return rt, nil
}

// EndRoundTrip gives a waiting call its result without a retry (the
// person stopped or moved on): its execution is finished with e's result
// and its round trip removed. A call that is not waiting is left as it
// is (ErrNotFound).
func (db *DB) EndRoundTrip(ctx context.Context, e history.ToolExecution) error {
	if e.FinishedAt == 0 {
		e.FinishedAt = db.now()
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			"UPDATE tool_executions SET state = 'finished', result = ?, is_error = ?, finished_at = ? WHERE thread_id = ? AND tool_call_id = ? AND state = 'awaiting_input'",
			e.Result, boolInt(e.IsError), e.FinishedAt, e.ThreadID, e.ToolCallID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotFound
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM tool_round_trips WHERE thread_id = ? AND tool_call_id = ?", e.ThreadID, e.ToolCallID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: end round trip of call %s in thread %s: %w", e.ToolCallID, e.ThreadID, err)
	}
	return nil
}
