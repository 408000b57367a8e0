package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// A tool call that runs as a task on its server (an MCP task) keeps the
// task's handle in its execution record, in the result column while the
// record is started (a started record has no result: the handle takes
// its place, and the outcome replaces it when the call finishes). The
// handle is one JSON object that starts with taskHandlePrefix, so a
// started record is either a plain call (result "") or a task call.
// Keeping it in the call's own row makes "the handle is stored with the
// call" one statement, in one transaction with nothing else to agree
// with, and needs no schema change.

// taskHandlePrefix starts every stored task handle.
const taskHandlePrefix = `{"task":`

// ErrNotStarted: the call has no started record to keep a handle in (it
// finished meanwhile, or was never begun).
var ErrNotStarted = errors.New("store: the tool call is not running")

// RecordToolTask keeps a running call's task handle (a JSON object
// {"task": …}) in its started execution record.
func (db *DB) RecordToolTask(ctx context.Context, threadID, toolCallID string, handle json.RawMessage) error {
	if !strings.HasPrefix(string(handle), taskHandlePrefix) || !json.Valid(handle) {
		return fmt.Errorf("store: record tool task %s: the handle is not a {\"task\": …} object", toolCallID)
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			"UPDATE tool_executions SET result = ? WHERE thread_id = ? AND tool_call_id = ? AND state = 'started'",
			string(handle), threadID, toolCallID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotStarted
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: record tool task %s of thread %s: %w", toolCallID, threadID, err)
	}
	return nil
}

// StartedToolTasks returns the task calls still running (started, with a
// handle), oldest first: after a restart, the app resumes them.
func (db *DB) StartedToolTasks(ctx context.Context) ([]history.ToolExecution, error) {
	// The prefix holds no LIKE wildcard.
	rows, err := db.r.QueryContext(ctx, "SELECT "+toolExecCols+
		" FROM tool_executions WHERE state = 'started' AND result LIKE ? ORDER BY started_at, thread_id, tool_call_id", taskHandlePrefix+"%")
	if err != nil {
		return nil, fmt.Errorf("store: started tool tasks: %w", err)
	}
	defer rows.Close()
	var out []history.ToolExecution
	for rows.Next() {
		e, err := scanToolExec(rows)
		if err != nil {
			return nil, fmt.Errorf("store: started tool tasks: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// isTaskCall reports whether a started record is a task call (Recover
// leaves those to be resumed).
func isTaskCall(e history.ToolExecution) bool {
	return e.State == history.ToolStarted && strings.HasPrefix(e.Result, taskHandlePrefix)
}
