package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// RecoveryReport counts what Recover found and did.
type RecoveryReport struct {
	InterruptedMessages    int `json:"interruptedMessages"`    // streaming → interrupted
	DroppedToolCalls       int `json:"droppedToolCalls"`       // tool calls of those messages, never completed
	FinishedToolExecutions int `json:"finishedToolExecutions"` // started → finished "app stopped"
	AddedToolResults       int `json:"addedToolResults"`       // tool messages written for them
	CancelledRuns          int `json:"cancelledRuns"`          // running → cancelled
	PendingInterrupts      int `json:"pendingInterrupts"`      // left pending, same ids
	PendingClientToolCalls int `json:"pendingClientToolCalls"` // left pending, same ids
}

// Recover repairs what a crash (or a kill) left half-done; the app runs it
// once at start, before any run. In one transaction:
//
//   - every message still streaming becomes interrupted, its content marked
//     with history.WithMarker; its reasoning (incomplete) and its tool calls
//     (never completed) are dropped;
//   - every tool execution still started becomes finished with
//     history.ResultAppStoppedMidRun as an error result, and a tool message
//     with that result is added to its thread if the call has none;
//   - every run still running becomes cancelled;
//   - pending interrupts and pending client tool calls are left as they are
//     (same ids), to be shown again; they are only counted.
func (db *DB) Recover(ctx context.Context) (RecoveryReport, error) {
	var rep RecoveryReport
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		rep = RecoveryReport{}
		streaming, err := queryMessages(ctx, tx, "SELECT "+messageCols+" FROM messages WHERE status = 'streaming' ORDER BY seq")
		if err != nil {
			return err
		}
		for _, m := range streaming {
			rep.InterruptedMessages++
			rep.DroppedToolCalls += len(m.ToolCalls)
			if _, err := tx.ExecContext(ctx,
				"UPDATE messages SET status = 'interrupted', content = ?, reasoning = '', tool_calls = NULL WHERE id = ?",
				history.WithMarker(m.Content), m.ID); err != nil {
				return fmt.Errorf("message %s: %w", m.ID, err)
			}
		}

		started, err := startedToolExecutions(ctx, tx)
		if err != nil {
			return err
		}
		for _, e := range started {
			rep.FinishedToolExecutions++
			if _, err := tx.ExecContext(ctx,
				"UPDATE tool_executions SET state = 'finished', result = ?, is_error = 1, finished_at = ? WHERE thread_id = ? AND tool_call_id = ?",
				history.ResultAppStoppedMidRun, now, e.ThreadID, e.ToolCallID); err != nil {
				return fmt.Errorf("tool execution %s: %w", e.ToolCallID, err)
			}
			var n int
			if err := tx.QueryRowContext(ctx,
				"SELECT count(*) FROM messages WHERE thread_id = ? AND role = 'tool' AND tool_call_id = ?",
				e.ThreadID, e.ToolCallID).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			rep.AddedToolResults++
			msg := history.Message{
				ID: newID(), ThreadID: e.ThreadID, RunID: e.RunID, Role: history.RoleTool,
				Content: history.ResultAppStoppedMidRun, ToolCallID: e.ToolCallID, ToolName: e.ToolName,
				IsError: true, Status: history.StatusComplete, CreatedAt: now,
			}
			// now = 0: a repair is not activity; the thread keeps its place.
			if err := putMessages(ctx, tx, []history.Message{msg}, 0, false); err != nil {
				return err
			}
		}

		res, err := tx.ExecContext(ctx,
			"UPDATE runs SET status = 'cancelled', finished_at = ? WHERE status = 'running'", now)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		rep.CancelledRuns = int(n)

		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM interrupts WHERE status = 'pending'").
			Scan(&rep.PendingInterrupts); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT count(*) FROM client_tool_calls WHERE state = 'pending'").
			Scan(&rep.PendingClientToolCalls)
	})
	if err != nil {
		return RecoveryReport{}, fmt.Errorf("store: recover: %w", err)
	}
	return rep, nil
}

func startedToolExecutions(ctx context.Context, tx *sql.Tx) ([]history.ToolExecution, error) {
	rows, err := tx.QueryContext(ctx, "SELECT "+toolExecCols+" FROM tool_executions WHERE state = 'started' ORDER BY started_at, thread_id, tool_call_id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []history.ToolExecution
	for rows.Next() {
		e, err := scanToolExec(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
