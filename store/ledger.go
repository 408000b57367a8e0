package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// The ledger is append-only and chained: each row carries the hash of the
// one before it (PrevHash) and its own, sha256 over PrevHash and the
// row's canonical encoding (canonicalEntry). The arguments and diff enter
// the chain through ArgsHash, so a deleted chat's rows can drop them for
// their shape without breaking the chain. What the chain proves: no row
// was changed, inserted or removed between the first and the last. What
// it cannot: that rows were not cut off the end (compare the head hash
// Verify reports with one kept elsewhere), or that the whole file was not
// rewritten by someone able to recompute every hash.

const ledgerColumns = `seq, at, kind, thread_id, run_id, call_id, tool, server, transport, rule_id,
arguments, diff, redacted, args_hash, reason, outcome, prev_hash, hash`

func scanLedger(s interface{ Scan(...any) error }) (history.LedgerEntry, error) {
	var e history.LedgerEntry
	var redacted int
	err := s.Scan(&e.Seq, &e.At, &e.Kind, &e.ThreadID, &e.RunID, &e.CallID, &e.Tool, &e.Server, &e.Transport,
		&e.RuleID, &e.Arguments, &e.Diff, &redacted, &e.ArgsHash, &e.Reason, &e.Outcome, &e.PrevHash, &e.Hash)
	e.Redacted = redacted != 0
	return e, err
}

// argsHash names an entry's arguments and diff.
func argsHash(arguments, diff string) string {
	h := sha256.New()
	// A hash never fails to take bytes.
	_, _ = io.WriteString(h, strconv.Itoa(len(arguments)))
	_, _ = io.WriteString(h, ":")
	_, _ = io.WriteString(h, arguments)
	_, _ = io.WriteString(h, diff)
	return hex.EncodeToString(h.Sum(nil))
}

// canonicalEntry is the encoding an entry's hash covers: a JSON array of
// its fields in a fixed order (JSON escapes every string the same way),
// the arguments by their hash.
func canonicalEntry(e history.LedgerEntry) []byte {
	b, _ := json.Marshal([]any{e.Seq, e.At, e.Kind, e.ThreadID, e.RunID, e.CallID, e.Tool, e.Server, e.Transport,
		e.RuleID, e.ArgsHash, e.Reason, e.Outcome, e.PrevHash})
	return b
}

func entryHash(e history.LedgerEntry) string {
	sum := sha256.Sum256(canonicalEntry(e))
	return hex.EncodeToString(sum[:])
}

// appendLedger appends e to the chain in tx and returns it as stored.
func appendLedger(ctx context.Context, tx *sql.Tx, e history.LedgerEntry) (history.LedgerEntry, error) {
	if e.Kind == "" {
		return e, errors.New("ledger entry without a kind")
	}
	var last sql.NullInt64
	var prev sql.NullString
	err := tx.QueryRowContext(ctx, "SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").Scan(&last, &prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return e, err
	}
	e.Seq = last.Int64 + 1
	if e.Kind != history.LedgerCleared || e.PrevHash == "" {
		e.PrevHash = prev.String
	}
	e.Redacted = false
	e.ArgsHash = argsHash(e.Arguments, e.Diff)
	e.Hash = entryHash(e)
	_, err = tx.ExecContext(ctx, `INSERT INTO ledger (`+ledgerColumns+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`, e.Seq, e.At, e.Kind, e.ThreadID, e.RunID, e.CallID,
		e.Tool, e.Server, e.Transport, e.RuleID, e.Arguments, e.Diff, e.ArgsHash, e.Reason, e.Outcome, e.PrevHash, e.Hash)
	return e, err
}

// AppendLedger records decisions, in order, in one transaction. An entry
// without At gets the store's clock.
func (db *DB) AppendLedger(ctx context.Context, entries ...history.LedgerEntry) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		for _, e := range entries {
			if e.At == 0 {
				e.At = db.now()
			}
			if _, err := appendLedger(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: append to the ledger: %w", err)
	}
	return nil
}

// LedgerReport is what VerifyLedger found.
type LedgerReport struct {
	Entries int  `json:"entries"`
	OK      bool `json:"ok"`
	// BrokenSeq is the first entry whose link does not hold (0 when OK),
	// and Problem says how.
	BrokenSeq int64  `json:"brokenSeq,omitempty"`
	Problem   string `json:"problem,omitempty"`
	// HeadHash is the last entry's hash: kept elsewhere, it shows later
	// that nothing was cut off the end.
	HeadHash string `json:"headHash,omitempty"`
}

// VerifyLedger walks the chain from the first entry and reports the first
// broken link: an entry whose PrevHash is not its predecessor's hash, whose
// hash is not that of its content, or whose unredacted arguments are not
// those its ArgsHash names. The first entry links to nothing, unless it
// is the record of a clear (LedgerCleared), which links to the cleared
// chain's head.
func (db *DB) VerifyLedger(ctx context.Context) (LedgerReport, error) {
	var rep LedgerReport
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT "+ledgerColumns+" FROM ledger ORDER BY seq")
		if err != nil {
			return err
		}
		defer rows.Close()
		prev, prevSeq := "", int64(0)
		for rows.Next() {
			e, err := scanLedger(rows)
			if err != nil {
				return err
			}
			rep.Entries++
			if problem := checkLink(e, rep.Entries == 1, prev, prevSeq); problem != "" && rep.BrokenSeq == 0 {
				rep.BrokenSeq, rep.Problem = e.Seq, problem
			}
			prev, prevSeq = e.Hash, e.Seq
		}
		rep.HeadHash = prev
		return rows.Err()
	})
	if err != nil {
		return LedgerReport{}, fmt.Errorf("store: verify the ledger: %w", err)
	}
	rep.OK = rep.BrokenSeq == 0
	return rep, nil
}

// checkLink says what is wrong with e, following the entry whose hash is
// prev ("" when e is first).
func checkLink(e history.LedgerEntry, first bool, prev string, prevSeq int64) string {
	switch {
	case !first && e.Seq != prevSeq+1:
		return fmt.Sprintf("entry %d follows entry %d: entries between them are missing", e.Seq, prevSeq)
	case first && e.PrevHash != "" && e.Kind != history.LedgerCleared:
		return "the first entry links to an earlier one that is missing"
	case !first && e.PrevHash != prev:
		return "its link to the entry before does not match that entry's hash"
	case entryHash(e) != e.Hash:
		return "its content does not match its hash (it was changed)"
	case !e.Redacted && argsHash(e.Arguments, e.Diff) != e.ArgsHash:
		return "its arguments do not match their hash (they were changed)"
	}
	return ""
}

// Ledger returns a page of entries matching f, newest first (at most
// f.Limit, 200 when unset, never more than 1000).
func (db *DB) Ledger(ctx context.Context, f history.LedgerFilter) ([]history.LedgerEntry, error) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if f.ThreadID != "" {
		add("thread_id = ?", f.ThreadID)
	}
	if f.Tool != "" {
		add("tool = ?", f.Tool)
	}
	if f.Server != "" {
		add("server = ?", f.Server)
	}
	if f.Kind != "" {
		add("kind = ?", f.Kind)
	}
	if f.Since != 0 {
		add("at >= ?", f.Since)
	}
	if f.Until != 0 {
		add("at < ?", f.Until)
	}
	if f.Before != 0 {
		add("seq < ?", f.Before)
	}
	if f.Search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(f.Search) + "%"
		where = append(where, `(tool LIKE ? ESCAPE '\' OR arguments LIKE ? ESCAPE '\' OR reason LIKE ? ESCAPE '\' OR outcome LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 200
	}
	limit = min(limit, 1000)
	q := "SELECT " + ledgerColumns + " FROM ledger"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC LIMIT " + strconv.Itoa(limit)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: ledger: %w", err)
	}
	defer rows.Close()
	out := []history.LedgerEntry{}
	for rows.Next() {
		e, err := scanLedger(rows)
		if err != nil {
			return nil, fmt.Errorf("store: ledger: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ledger: %w", err)
	}
	return out, nil
}

// Ledger export formats.
const (
	LedgerJSONL = "jsonl"
	LedgerCSV   = "csv"
)

var ledgerCSVHeader = []string{"seq", "at", "kind", "threadId", "runId", "callId", "tool", "server", "transport",
	"ruleId", "arguments", "diff", "redacted", "argsHash", "reason", "outcome", "prevHash", "hash"}

// ExportLedger writes every entry, oldest first, as JSON lines or CSV (a
// header row, then one row per entry; a cell a spreadsheet would read as
// a formula starts with a quote mark).
func (db *DB) ExportLedger(ctx context.Context, w io.Writer, format string) error {
	if format != LedgerJSONL && format != LedgerCSV {
		return fmt.Errorf("store: export the ledger: unknown format %q (jsonl or csv)", format)
	}
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT "+ledgerColumns+" FROM ledger ORDER BY seq")
		if err != nil {
			return err
		}
		defer rows.Close()
		enc := json.NewEncoder(w)
		cw := csv.NewWriter(w)
		if format == LedgerCSV {
			if err := cw.Write(ledgerCSVHeader); err != nil {
				return err
			}
		}
		for rows.Next() {
			e, err := scanLedger(rows)
			if err != nil {
				return err
			}
			if format == LedgerJSONL {
				if err := enc.Encode(e); err != nil {
					return err
				}
				continue
			}
			rec := []string{strconv.FormatInt(e.Seq, 10), strconv.FormatInt(e.At, 10), e.Kind, e.ThreadID, e.RunID,
				e.CallID, e.Tool, e.Server, e.Transport, e.RuleID, e.Arguments, e.Diff, strconv.FormatBool(e.Redacted),
				e.ArgsHash, e.Reason, e.Outcome, e.PrevHash, e.Hash}
			for i, c := range rec {
				rec[i] = csvCell(c)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("store: export the ledger: %w", err)
	}
	return nil
}

// csvCell keeps a spreadsheet from reading a cell as a formula.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ClearLedger deletes every entry and starts a new chain whose first entry
// records the clear: how many entries went and the head hash they ended
// at (its PrevHash). The caller asks the person first.
func (db *DB) ClearLedger(ctx context.Context, transport string) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		var n int
		var head sql.NullString
		if err := tx.QueryRowContext(ctx, "SELECT count(*), (SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1) FROM ledger").Scan(&n, &head); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger"); err != nil {
			return err
		}
		_, err := appendLedger(ctx, tx, history.LedgerEntry{At: db.now(), Kind: history.LedgerCleared, Transport: transport,
			PrevHash: head.String, Reason: fmt.Sprintf("%d entries cleared", n)})
		return err
	})
	if err != nil {
		return fmt.Errorf("store: clear the ledger: %w", err)
	}
	return nil
}

// redactThreadLedger replaces the arguments and diff of a deleted chat's
// entries by their shape (their ArgsHash stays: the chain still holds) and
// records the deletion. threadID "" redacts every chat's entries.
func redactThreadLedger(ctx context.Context, tx *sql.Tx, threadID string, now int64) error {
	q := "SELECT seq, arguments, diff FROM ledger WHERE redacted = 0 AND thread_id != ''"
	var args []any
	if threadID != "" {
		q += " AND thread_id = ?"
		args = append(args, threadID)
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	type redaction struct {
		seq        int64
		args, diff string
	}
	var todo []redaction
	for rows.Next() {
		var r redaction
		if err := rows.Scan(&r.seq, &r.args, &r.diff); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, redaction{r.seq, history.Shape(r.args), shapeDiff(r.diff)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range todo {
		if _, err := tx.ExecContext(ctx, "UPDATE ledger SET arguments = ?, diff = ?, redacted = 1 WHERE seq = ?", r.args, r.diff, r.seq); err != nil {
			return err
		}
	}
	reason := fmt.Sprintf("%d entries redacted to their shape", len(todo))
	_, err = appendLedger(ctx, tx, history.LedgerEntry{At: now, Kind: history.LedgerChatDeleted, ThreadID: threadID,
		Transport: history.TransportWindow, Reason: reason})
	return err
}

// shapeDiff is what a redacted diff keeps: how many lines it had.
func shapeDiff(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf("<diff of %d lines>", strings.Count(d, "\n")+1)
}
