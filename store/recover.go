package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

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
	// ResumableTasks counts task calls left started, with their handle:
	// the app resumes them (StartedToolTasks).
	ResumableTasks int `json:"resumableTasks,omitempty"`
	// EndedMidCallQuestions counts questions a running tool had asked (an
	// MCP server's elicitation or sampling request): the request ended
	// with the process, so they are settled cancelled and their call's
	// result says what was asked.
	EndedMidCallQuestions int `json:"endedMidCallQuestions"`
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
//   - except a task call (started with a task handle: RecordToolTask),
//     which is left started: its work goes on at its server, and the app
//     resumes it after recovery (a question it had asked is settled
//     cancelled: the resumed task asks it again);
//   - every run still running becomes cancelled;
//   - a pending interrupt bound to such a call is a question the tool asked
//     while it ran (an MCP server's elicitation or sampling request): the
//     request ended with the process, so the item is settled cancelled
//     and the call's result says what was asked (shown, never a form);
//   - other pending interrupts and pending client tool calls are left as
//     they are (same ids), to be shown again; they are only counted.
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
			if isTaskCall(e) {
				// Its question (a task's input_required) went with the
				// process that asked it: the resumed task asks again.
				asked, err := endMidCallQuestions(ctx, tx, e, now)
				if err != nil {
					return fmt.Errorf("tool execution %s: %w", e.ToolCallID, err)
				}
				rep.EndedMidCallQuestions += len(asked)
				rep.ResumableTasks++
				continue
			}
			rep.FinishedToolExecutions++
			if _, err := tx.ExecContext(ctx,
				"UPDATE tool_executions SET state = 'finished', result = ?, is_error = 1, finished_at = ? WHERE thread_id = ? AND tool_call_id = ?",
				history.ResultAppStoppedMidRun, now, e.ThreadID, e.ToolCallID); err != nil {
				return fmt.Errorf("tool execution %s: %w", e.ToolCallID, err)
			}
			asked, err := endMidCallQuestions(ctx, tx, e, now)
			if err != nil {
				return fmt.Errorf("tool execution %s: %w", e.ToolCallID, err)
			}
			rep.EndedMidCallQuestions += len(asked)
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
			content, state := history.ResultAppStoppedMidRun, ""
			for _, q := range asked {
				content += "\nIt was waiting for your answer to: " + q
				state = "interrupted-mid-run"
			}
			msg := history.Message{
				ID: newID(), ThreadID: e.ThreadID, RunID: e.RunID, Role: history.RoleTool,
				Content: content, ToolCallID: e.ToolCallID, ToolName: e.ToolName,
				IsError: true, ToolState: state, Status: history.StatusComplete, CreatedAt: now,
			}
			if err := putRecoveredResult(ctx, tx, msg); err != nil {
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

// endMidCallQuestions settles, as cancelled, the pending questions bound
// to a call that was still running, and returns what they asked.
func endMidCallQuestions(ctx context.Context, tx *sql.Tx, e history.ToolExecution, now int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx,
		"SELECT id, descriptor FROM interrupts WHERE thread_id = ? AND tool_call_id = ? AND status = 'pending' ORDER BY seq",
		e.ThreadID, e.ToolCallID)
	if err != nil {
		return nil, err
	}
	type item struct{ id, message string }
	var items []item
	for rows.Next() {
		var id, desc string
		if err := rows.Scan(&id, &desc); err != nil {
			rows.Close()
			return nil, err
		}
		var d struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal([]byte(desc), &d)
		items = append(items, item{id, d.Message})
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	var asked []string
	for _, it := range items {
		if _, err := tx.ExecContext(ctx,
			"UPDATE interrupts SET status = 'cancelled', resolved_at = ? WHERE id = ? AND thread_id = ?", now, it.id, e.ThreadID); err != nil {
			return nil, err
		}
		asked = append(asked, it.message)
	}
	return asked, nil
}

// putRecoveredResult stores the result of a call that was running when the
// app stopped on the call's own branch. When the call is on the active
// path (always, since the path never changes while a call runs) the result
// goes at the end of it, as the model's history expects (history.ForModel
// puts results right after their call). Otherwise, in a damaged file, it
// goes after the call's answer and the results of its batch, and the
// active path stays where it was.
func putRecoveredResult(ctx context.Context, tx *sql.Tx, msg history.Message) error {
	t, err := readTree(ctx, tx, msg.ThreadID, false)
	if err != nil {
		return err
	}
	parent := -1
	for i := range t.rows {
		if t.rows[i].m.Role != history.RoleAssistant || !t.rows[i].calls.Valid || !strings.Contains(t.rows[i].calls.String, msg.ToolCallID) {
			continue
		}
		m, err := t.rows[i].decode()
		if err != nil {
			return err
		}
		for _, c := range m.ToolCalls {
			if c.ID == msg.ToolCallID {
				parent = i
			}
		}
	}
	for i := t.leafIndex(); i >= 0 && parent >= 0; i = int(t.parent[i]) {
		if i == parent {
			parent = -1 // on the active path: append at its end
			break
		}
	}
	if parent >= 0 {
		// Past the batch's results already stored.
		for next := true; next; {
			next = false
			for c := parent + 1; c < len(t.rows); c++ {
				if int(t.parent[c]) == parent && t.rows[c].m.Role == history.RoleTool {
					parent, next = c, true
					break
				}
			}
		}
		msg.ParentID = t.rows[parent].m.ID
	}
	leaf := t.leaf
	// now = 0: a repair is not activity; the thread keeps its place.
	if err := putMessages(ctx, tx, []history.Message{msg}, 0, false); err != nil {
		return err
	}
	if msg.ParentID != "" && msg.ParentID != leaf {
		return setLeaf(ctx, tx, msg.ThreadID, leaf)
	}
	return nil
}
