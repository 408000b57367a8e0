package store

// A thread is a tree of messages (schema v5). Every message but a first one
// has a parent; an edited question is a sibling of the question it
// replaces, a regenerated answer a sibling of the answer. The thread keeps
// one active leaf: the path from a first message to it is what Messages
// returns, the window shows and the model reads. A new message is stored
// after the active leaf unless it names its parent, and becomes the leaf.
//
// Switching to a branch (SelectBranch) goes back to where the person last
// was in it: each message remembers the thread's branch clock the last
// time it was the leaf (messages.active_at), and the branch's most recent
// one becomes the leaf again.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// tree is a thread's messages as stored, indexed for walking. Reading a
// thread is the window's most frequent query, so the tree is built in one
// pass without maps in the common case: a message's parent is almost
// always the row before it (a chain), and the id index is built only when
// one is not.
type tree struct {
	rows   []messageRow
	parent []int32 // row of each row's parent; -1 for a first message
	kids   []int32 // children per row
	roots  int32   // first messages (more than one: the first question was edited)
	leaf   string
	byID   map[string]int32 // built on first use
	sibs   map[int32][]int  // rows by parent (-1: first messages), for parents with several; built on first use
}

// readTree scans a thread's messages (every branch), its JSON columns left
// encoded; withClock also reads when each was last the leaf. ErrNotFound
// when there is no such thread.
func readTree(ctx context.Context, tx *sql.Tx, threadID string, withClock bool) (*tree, error) {
	t := &tree{}
	var n int
	err := tx.QueryRowContext(ctx, "SELECT active_leaf, (SELECT count(*) FROM messages WHERE thread_id = ?1) FROM threads WHERE id = ?1",
		threadID).Scan(&t.leaf, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	q := "SELECT " + messageCols + " FROM messages WHERE thread_id = ? ORDER BY seq"
	if withClock {
		q = "SELECT " + messageCols + ", active_at FROM messages WHERE thread_id = ? ORDER BY seq"
	}
	rows, err := tx.QueryContext(ctx, q, threadID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// Sized up front: rows are large, and regrowing the slice would copy
	// every one of them several times.
	t.rows = make([]messageRow, 0, n)
	var r messageRow // scanned into, then copied: one destination list for every row
	dest := r.dest()
	if withClock {
		dest = append(dest, &r.activeAt)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		t.rows = append(t.rows, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	t.parent = make([]int32, len(t.rows))
	t.kids = make([]int32, len(t.rows))
	for i := range t.rows {
		p := t.find(t.rows[i].m.ParentID, i)
		t.parent[i] = p
		if p >= 0 {
			t.kids[p]++
		} else {
			t.roots++
		}
	}
	return t, nil
}

// find returns the row of message id, -1 when there is none; before is a
// row the message is likely just before (a chain), or -1.
func (t *tree) find(id string, before int) int32 {
	if id == "" {
		return -1
	}
	if before > 0 && t.rows[before-1].m.ID == id {
		return int32(before - 1)
	}
	if t.byID == nil {
		t.byID = make(map[string]int32, len(t.rows))
		for i := range t.rows {
			t.byID[t.rows[i].m.ID] = int32(i)
		}
	}
	if i, ok := t.byID[id]; ok {
		return i
	}
	return -1
}

// leafIndex is the active leaf's row, -1 for an empty path. A leaf that
// names no stored message (never written by this package) falls back to
// the last message stored, so a thread always shows what it holds.
func (t *tree) leafIndex() int {
	if t.leaf == "" {
		return -1
	}
	if i := t.find(t.leaf, len(t.rows)); i >= 0 {
		return int(i)
	}
	return len(t.rows) - 1
}

// index returns the row of message id (ok false when the thread has none).
func (t *tree) index(id string) (int, bool) {
	i := t.find(id, -1)
	return int(i), i >= 0
}

// siblings returns the rows sharing row i's parent, in stored order.
func (t *tree) siblings(i int) []int {
	if t.sibs == nil {
		t.sibs = map[int32][]int{}
		for j := range t.rows {
			if p := t.parent[j]; (p >= 0 && t.kids[p] > 1) || (p < 0 && t.roots > 1) {
				t.sibs[p] = append(t.sibs[p], j)
			}
		}
	}
	return t.sibs[t.parent[i]]
}

// path returns the messages from a first message to row i (none for -1),
// decoded, with Branch set where a message has siblings.
func (t *tree) path(i int) ([]history.Message, error) {
	var idx []int
	for steps := 0; i >= 0 && steps <= len(t.rows); steps++ {
		idx = append(idx, i)
		i = int(t.parent[i])
	}
	out := make([]history.Message, 0, len(idx))
	for k := len(idx) - 1; k >= 0; k-- {
		r := idx[k]
		m, err := t.rows[r].decode()
		if err != nil {
			return nil, err
		}
		if p := t.parent[r]; (p >= 0 && t.kids[p] > 1) || (p < 0 && t.roots > 1) {
			sibs := t.siblings(r)
			b := &history.Branch{Count: len(sibs), Siblings: make([]string, len(sibs))}
			for n, s := range sibs {
				b.Siblings[n] = t.rows[s].m.ID
				if s == r {
					b.Index = n + 1
				}
			}
			m.Branch = b
		}
		out = append(out, m)
	}
	return out, nil
}

// latestIn returns the row of the most recently active message in the
// subtree of row i (i itself included); later rows win ties. A child is
// always stored after its parent, so one forward pass finds the subtree.
func (t *tree) latestIn(i int) int {
	in := make([]bool, len(t.rows))
	in[i] = true
	best := i
	for j := i + 1; j < len(t.rows); j++ {
		if p := t.parent[j]; p < 0 || !in[p] {
			continue
		}
		in[j] = true
		if t.rows[j].activeAt >= t.rows[best].activeAt {
			best = j
		}
	}
	return best
}

// PathTo returns the path from a first message to messageID (on any
// branch), as Messages returns the active one. ErrNotFound when the thread
// has no such message.
func (db *DB) PathTo(ctx context.Context, threadID, messageID string) ([]history.Message, error) {
	var msgs []history.Message
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		t, err := readTree(ctx, tx, threadID, false)
		if err != nil {
			return err
		}
		i, ok := t.index(messageID)
		if !ok {
			return fmt.Errorf("message %s: %w", messageID, ErrNotFound)
		}
		msgs, err = t.path(i)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: path to %s in thread %s: %w", messageID, threadID, err)
	}
	return msgs, nil
}

// SetActiveLeaf makes messageID the end of the thread's active path (""
// for an empty path, before a new first message). The next message stored
// without a parent follows it. ErrNotFound when the thread has no such
// message.
func (db *DB) SetActiveLeaf(ctx context.Context, threadID, messageID string) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		if err := threadExists(ctx, tx, threadID); err != nil {
			return err
		}
		if messageID != "" {
			ok, err := exists(ctx, tx, "SELECT 1 FROM messages WHERE id = ? AND thread_id = ?", messageID, threadID)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("message %s: %w", messageID, ErrNotFound)
			}
		}
		return setLeaf(ctx, tx, threadID, messageID)
	})
	if err != nil {
		return fmt.Errorf("store: set the active message of thread %s: %w", threadID, err)
	}
	return nil
}

// SelectBranch makes the path through messageID the active one, down to
// the message of that branch the person was last at, and returns that
// leaf. Selecting a message already on the active path changes nothing.
// A read-only copy writes nothing: it shows the version chosen
// (viewBranch).
func (db *DB) SelectBranch(ctx context.Context, threadID, messageID string) (leaf string, err error) {
	if db.readOnly {
		return db.viewBranch(ctx, threadID, messageID)
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		t, err := readTree(ctx, tx, threadID, true)
		if err != nil {
			return err
		}
		i, ok := t.index(messageID)
		if !ok {
			return fmt.Errorf("message %s: %w", messageID, ErrNotFound)
		}
		leaf = t.rows[t.latestIn(i)].m.ID
		if leaf == t.leaf {
			return nil
		}
		return setLeaf(ctx, tx, threadID, leaf)
	})
	if err != nil {
		return "", fmt.Errorf("store: select the branch of %s in thread %s: %w", messageID, threadID, err)
	}
	return leaf, nil
}

// setLeaf moves the thread's active leaf and stamps it with the next clock
// value.
func setLeaf(ctx context.Context, tx *sql.Tx, threadID, messageID string) error {
	clock, err := advanceLeaf(ctx, tx, threadID, messageID)
	if err != nil || messageID == "" {
		return err
	}
	_, err = tx.ExecContext(ctx, "UPDATE messages SET active_at = ? WHERE id = ?", clock, messageID)
	return err
}

// advanceLeaf records messageID as the thread's leaf and returns the
// clock value of that change.
func advanceLeaf(ctx context.Context, tx *sql.Tx, threadID, messageID string) (clock int64, err error) {
	err = tx.QueryRowContext(ctx, "UPDATE threads SET active_leaf = ?, branch_clock = branch_clock + 1 WHERE id = ? RETURNING branch_clock",
		messageID, threadID).Scan(&clock)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("thread %s: %w", threadID, ErrNotFound)
	}
	return clock, err
}

// placeMessage returns where a message goes in its thread's tree when it
// is new: its parent (ParentID, or else the active leaf) and its clock
// value; the message becomes the active leaf. For a message already
// stored it returns zero values, which the upsert ignores: a message never
// moves in the tree.
func placeMessage(ctx context.Context, tx *sql.Tx, m history.Message) (parent string, activeAt int64, err error) {
	stored, err := exists(ctx, tx, "SELECT 1 FROM messages WHERE id = ?", m.ID)
	if err != nil || stored {
		return "", 0, err
	}
	err = tx.QueryRowContext(ctx, "SELECT active_leaf FROM threads WHERE id = ?", m.ThreadID).Scan(&parent)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("thread %s: %w", m.ThreadID, ErrNotFound)
	}
	if err != nil {
		return "", 0, err
	}
	if m.ParentID != "" {
		ok, err := exists(ctx, tx, "SELECT 1 FROM messages WHERE id = ? AND thread_id = ?", m.ParentID, m.ThreadID)
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return "", 0, fmt.Errorf("parent %s is not a message of thread %s", m.ParentID, m.ThreadID)
		}
		parent = m.ParentID
	}
	activeAt, err = advanceLeaf(ctx, tx, m.ThreadID, m.ID)
	return parent, activeAt, err
}

// SetThreadOptions stores a thread's own endpoint, model, preset and tools
// (SystemPrompt is not stored here: instructions are system messages in
// the thread, so each branch keeps its own).
func (db *DB) SetThreadOptions(ctx context.Context, threadID string, o history.ThreadOptions) error {
	b, err := encodeOptions(o)
	if err != nil {
		return fmt.Errorf("store: options of thread %s: %w", threadID, err)
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE threads SET options = ? WHERE id = ?", b, threadID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: options of thread %s: %w", threadID, err)
	}
	return nil
}

func encodeOptions(o history.ThreadOptions) (string, error) {
	o.SystemPrompt = ""
	if o.EndpointID == "" && o.Model == "" && o.PresetID == "" && o.Tools == nil {
		return "", nil
	}
	b, err := json.Marshal(o)
	return string(b), err
}

func decodeOptions(s string, o *history.ThreadOptions) error {
	if s == "" {
		return nil
	}
	return json.Unmarshal([]byte(s), o)
}

// ThreadUsage returns the token counts of a thread's answers on every
// branch (what the person paid for), and how many answers had none
// reported.
func (db *DB) ThreadUsage(ctx context.Context, threadID string) (history.ThreadUsage, error) {
	var u history.ThreadUsage
	rows, err := db.r.QueryContext(ctx,
		"SELECT usage FROM messages WHERE thread_id = ? AND role = 'assistant' AND status <> 'streaming'", threadID)
	if err != nil {
		return u, fmt.Errorf("store: usage of thread %s: %w", threadID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			return u, fmt.Errorf("store: usage of thread %s: %w", threadID, err)
		}
		u.Answers++
		if !s.Valid {
			u.Unreported++
			continue
		}
		one, err := decodeUsage(s.String)
		if err != nil {
			return u, fmt.Errorf("store: usage of thread %s: %w", threadID, err)
		}
		u.Total = u.Total.Add(one)
	}
	if err := rows.Err(); err != nil {
		return u, fmt.Errorf("store: usage of thread %s: %w", threadID, err)
	}
	return u, nil
}

// ToolCallIDs returns every tool call id the thread's answers hold, on
// every branch: an endpoint that numbers calls per response repeats them,
// and the runtime gives a repeated id a fresh one so no old result is ever
// taken for a new call. Only the answers with calls are read.
func (db *DB) ToolCallIDs(ctx context.Context, threadID string) (map[string]bool, error) {
	rows, err := db.r.QueryContext(ctx,
		"SELECT tool_calls FROM messages WHERE thread_id = ? AND tool_calls IS NOT NULL", threadID)
	if err != nil {
		return nil, fmt.Errorf("store: tool call ids of thread %s: %w", threadID, err)
	}
	defer rows.Close()
	used := map[string]bool{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, fmt.Errorf("store: tool call ids of thread %s: %w", threadID, err)
		}
		var calls []struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(raw), &calls); err != nil {
			return nil, fmt.Errorf("store: tool call ids of thread %s: %w", threadID, err)
		}
		for _, c := range calls {
			used[c.ID] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tool call ids of thread %s: %w", threadID, err)
	}
	return used, nil
}
