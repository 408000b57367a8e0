package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/juncture-app/juncture/agent/history"
)

// Resolution answers one pending interrupt (history.Resolution).
type Resolution = history.Resolution

// Settle writes one accepted answer batch in one transaction, all or
// nothing (see history.Settlement):
//
//   - every listed interrupt must be pending in s.ThreadID and listed once;
//     it gets its Status (resolved or cancelled), Response and a resolved
//     time;
//   - every listed client tool call (ThreadID s.ThreadID, by ToolCallID)
//     must be pending and listed once; it gets its State (done or
//     cancelled) and Result;
//   - every rule is added (ID and CreatedAt filled if empty); a rule
//     identical to a stored one (same tool, scope and pattern, or same id)
//     is kept once, without error;
//   - the staged answers of the settled items are deleted.
//
// If any listed item is not pending (answered already, cancelled, of
// another thread, unknown, or listed twice) nothing changes, rules
// included, and a *ConflictError lists every offending id, interrupt ids
// first, then client tool call ids. Writes are serialised, so of two
// concurrent settlements of one item the first wins and the other
// conflicts.
func (db *DB) Settle(ctx context.Context, s history.Settlement) error {
	s, err := db.checkSettlement(s)
	if err != nil {
		return fmt.Errorf("store: settle thread %s: %w", s.ThreadID, err)
	}
	now := db.now()
	var conflict *ConflictError
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		bad, err := unsettled(ctx, tx, s)
		if err != nil {
			return err
		}
		if len(bad) > 0 {
			conflict = &ConflictError{IDs: bad}
			return conflict
		}
		for _, r := range s.Interrupts {
			if _, err := tx.ExecContext(ctx,
				"UPDATE interrupts SET status = ?, response = ?, resolved_at = ? WHERE id = ? AND thread_id = ?",
				string(r.Status), nullJSON(r.Response), now, r.ID, s.ThreadID); err != nil {
				return fmt.Errorf("interrupt %s: %w", r.ID, err)
			}
			if err := dropStaged(ctx, tx, s.ThreadID, r.ID); err != nil {
				return err
			}
		}
		for _, c := range s.ClientCalls {
			if _, err := tx.ExecContext(ctx,
				"UPDATE client_tool_calls SET state = ?, result = ? WHERE thread_id = ? AND tool_call_id = ?",
				string(c.State), c.Result, s.ThreadID, c.ToolCallID); err != nil {
				return fmt.Errorf("client tool call %s: %w", c.ToolCallID, err)
			}
			if err := dropStaged(ctx, tx, s.ThreadID, c.ToolCallID); err != nil {
				return err
			}
		}
		transport := s.Transport
		if transport == "" {
			transport = history.TransportWindow
		}
		for _, e := range s.Ledger {
			if e.Transport == "" {
				e.Transport = transport
			}
			if _, err := appendLedger(ctx, tx, e); err != nil {
				return fmt.Errorf("ledger: %w", err)
			}
		}
		for _, r := range s.Rules {
			if err := insertRule(ctx, tx, r, transport); err != nil {
				return fmt.Errorf("permission rule %s: %w", r.ID, err)
			}
		}
		return nil
	})
	if conflict != nil {
		return conflict
	}
	if err != nil {
		return fmt.Errorf("store: settle thread %s: %w", s.ThreadID, err)
	}
	return nil
}

// checkSettlement validates s and returns a copy with the rules' defaults
// filled (the caller's slices are not modified).
func (db *DB) checkSettlement(s history.Settlement) (history.Settlement, error) {
	if s.ThreadID == "" {
		return s, errors.New("empty thread id")
	}
	for _, r := range s.Interrupts {
		if r.Status != history.InterruptResolved && r.Status != history.InterruptCancelled {
			return s, fmt.Errorf("interrupt %s: status must be resolved or cancelled, not %q", r.ID, r.Status)
		}
		if len(r.Response) > 0 && !json.Valid(r.Response) {
			return s, fmt.Errorf("interrupt %s: response is not valid JSON", r.ID)
		}
	}
	for _, c := range s.ClientCalls {
		if c.ToolCallID == "" {
			return s, errors.New("client tool call with an empty tool call id")
		}
		if c.ThreadID != "" && c.ThreadID != s.ThreadID {
			return s, fmt.Errorf("client tool call %s belongs to thread %s", c.ToolCallID, c.ThreadID)
		}
		if c.State != history.ClientToolDone && c.State != history.ClientToolCancelled {
			return s, fmt.Errorf("client tool call %s: state must be done or cancelled, not %q", c.ToolCallID, c.State)
		}
	}
	if len(s.Rules) > 0 {
		now := db.now()
		s.Rules = slices.Clone(s.Rules)
		for i := range s.Rules {
			r := &s.Rules[i]
			if r.Tool == "" || r.Scope == "" {
				return s, fmt.Errorf("permission rule %q: empty tool or scope", r.ID)
			}
			if r.ID == "" {
				r.ID = newID()
			}
			if r.CreatedAt == 0 {
				r.CreatedAt = now
			}
		}
	}
	return s, nil
}

// unsettled returns the ids of s that are not pending in s.ThreadID or are
// listed more than once, interrupts first.
func unsettled(ctx context.Context, tx *sql.Tx, s history.Settlement) ([]string, error) {
	var bad []string
	seen := make(map[string]bool, len(s.Interrupts))
	for _, r := range s.Interrupts {
		ok, err := exists(ctx, tx,
			"SELECT 1 FROM interrupts WHERE id = ? AND thread_id = ? AND status = 'pending'", r.ID, s.ThreadID)
		if err != nil {
			return nil, err
		}
		if !ok || seen[r.ID] {
			bad = append(bad, r.ID)
		}
		seen[r.ID] = true
	}
	seen = make(map[string]bool, len(s.ClientCalls))
	for _, c := range s.ClientCalls {
		ok, err := exists(ctx, tx,
			"SELECT 1 FROM client_tool_calls WHERE thread_id = ? AND tool_call_id = ? AND state = 'pending'", s.ThreadID, c.ToolCallID)
		if err != nil {
			return nil, err
		}
		if !ok || seen[c.ToolCallID] {
			bad = append(bad, c.ToolCallID)
		}
		seen[c.ToolCallID] = true
	}
	return bad, nil
}

// exists reports whether query returns a row.
func exists(ctx context.Context, tx *sql.Tx, query string, args ...any) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// ResolveInterrupts answers pending interrupts of a thread, all or nothing:
// it is Settle with interrupts only. If any listed id is not pending in
// that thread (answered already, of another thread, unknown, or listed
// twice) nothing changes and a *ConflictError lists the offending ids.
// First answer wins.
func (db *DB) ResolveInterrupts(ctx context.Context, threadID string, res []Resolution) error {
	return db.Settle(ctx, history.Settlement{ThreadID: threadID, Interrupts: res})
}

// StageAnswers keeps partial answers of a paused batch (upsert by thread
// and item id), in one transaction, until Settle settles their items. Each
// ItemID must be a pending interrupt id of the thread or the tool call id
// of one of its pending client tool calls; otherwise nothing is written and
// a *ConflictError lists the ids that are not pending. Payload must be
// valid JSON. A re-staged item gets the new payload and keeps its place
// (and CreatedAt) in the staging order. CreatedAt defaults to now.
func (db *DB) StageAnswers(ctx context.Context, threadID string, answers []history.StagedAnswer) error {
	if threadID == "" {
		return errors.New("store: stage answers: empty thread id")
	}
	for _, a := range answers {
		if a.ItemID == "" {
			return fmt.Errorf("store: stage answers of %s: empty item id", threadID)
		}
		if a.ThreadID != "" && a.ThreadID != threadID {
			return fmt.Errorf("store: stage answers of %s: answer to %s belongs to thread %s", threadID, a.ItemID, a.ThreadID)
		}
		if !json.Valid(a.Payload) {
			return fmt.Errorf("store: stage answers of %s: payload of %s is not valid JSON", threadID, a.ItemID)
		}
	}
	if len(answers) == 0 {
		return nil
	}
	now := db.now()
	var conflict *ConflictError
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		var bad []string
		checked := make(map[string]bool, len(answers))
		for _, a := range answers {
			if checked[a.ItemID] {
				continue
			}
			checked[a.ItemID] = true
			ok, err := pendingItem(ctx, tx, threadID, a.ItemID)
			if err != nil {
				return err
			}
			if !ok {
				bad = append(bad, a.ItemID)
			}
		}
		if len(bad) > 0 {
			conflict = &ConflictError{IDs: bad}
			return conflict
		}
		var seq int64
		if err := tx.QueryRowContext(ctx,
			"SELECT coalesce(max(seq), 0) FROM staged_answers WHERE thread_id = ?", threadID).Scan(&seq); err != nil {
			return err
		}
		for _, a := range answers {
			if a.CreatedAt == 0 {
				a.CreatedAt = now
			}
			seq++
			if _, err := tx.ExecContext(ctx, `INSERT INTO staged_answers (thread_id, item_id, payload, created_at, seq)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id, item_id) DO UPDATE SET payload = excluded.payload`,
				threadID, a.ItemID, string(a.Payload), a.CreatedAt, seq); err != nil {
				return fmt.Errorf("answer to %s: %w", a.ItemID, err)
			}
		}
		return nil
	})
	if conflict != nil {
		return conflict
	}
	if err != nil {
		return fmt.Errorf("store: stage answers of %s: %w", threadID, err)
	}
	return nil
}

// pendingItem reports whether id is a pending interrupt or the tool call
// id of a pending client tool call of the thread.
func pendingItem(ctx context.Context, tx *sql.Tx, threadID, id string) (bool, error) {
	return exists(ctx, tx, `SELECT 1 WHERE
    EXISTS (SELECT 1 FROM interrupts WHERE id = ?1 AND thread_id = ?2 AND status = 'pending')
    OR EXISTS (SELECT 1 FROM client_tool_calls WHERE thread_id = ?2 AND tool_call_id = ?1 AND state = 'pending')`,
		id, threadID)
}

// StagedAnswers returns the thread's staged answers in staging order
// (CreatedAt, then the order they were first staged).
func (db *DB) StagedAnswers(ctx context.Context, threadID string) ([]history.StagedAnswer, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT thread_id, item_id, payload, created_at FROM staged_answers
WHERE thread_id = ? ORDER BY created_at, seq`, threadID)
	if err != nil {
		return nil, fmt.Errorf("store: staged answers of %s: %w", threadID, err)
	}
	defer rows.Close()
	out := []history.StagedAnswer{}
	for rows.Next() {
		var a history.StagedAnswer
		var payload string
		if err := rows.Scan(&a.ThreadID, &a.ItemID, &payload, &a.CreatedAt); err != nil {
			return nil, fmt.Errorf("store: staged answers of %s: %w", threadID, err)
		}
		a.Payload = json.RawMessage(payload)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: staged answers of %s: %w", threadID, err)
	}
	return out, nil
}

// dropStaged deletes the staged answer of one item, if any: the item is no
// longer pending.
func dropStaged(ctx context.Context, tx *sql.Tx, threadID, itemID string) error {
	if _, err := tx.ExecContext(ctx,
		"DELETE FROM staged_answers WHERE thread_id = ? AND item_id = ?", threadID, itemID); err != nil {
		return fmt.Errorf("staged answer of %s: %w", itemID, err)
	}
	return nil
}
