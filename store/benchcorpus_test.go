package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// benchThreadsFor is the number of threads of a generated history: 10,000
// up to 1,000,000 messages (100 a thread), then 100 messages a thread, so
// a 10,000,000-message history has 100,000 threads, not 1,000-message ones.
func benchThreadsFor(total int) int { return max(10_000, total/100) }

// corpusBatch is how many rows one write transaction of generate inserts:
// large enough that commits cost nothing, small enough that the WAL stays
// a few hundred MiB.
const corpusBatch = 200_000

// corpusRow is one row generate inserts: a thread (msg == false) or a
// message.
type corpusRow struct {
	msg                  bool
	seq                  int
	id, thread, parent   string
	role, content        string
	calls, callID, tool  string
	title                string
	pinned               bool
	createdAt, updatedAt int64
}

// generate fills db with a realistic history of total messages: the text
// is drawn by one goroutine (deterministic: same seed, same history) while
// this one inserts it with prepared statements, corpusBatch rows a
// transaction, the FTS triggers indexing as it goes.
func generate(db *DB, total int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Bulk-load settings on the one writer connection, restored after: a
	// big page cache keeps the messages_thread index in memory, and FTS5's
	// larger pending-terms buffer means fewer, larger segments to merge.
	for _, p := range []string{"PRAGMA cache_size(-1000000)", "PRAGMA synchronous(OFF)"} {
		if _, err := db.w.ExecContext(ctx, p); err != nil {
			return err
		}
	}
	// hashsize is kept in messages_fts_config: set back to FTS5's default
	// (1 MiB) once loaded, so the bench measures the writes people get.
	if _, err := db.w.ExecContext(ctx, "INSERT INTO messages_fts (messages_fts, rank) VALUES ('hashsize', 268435456)"); err != nil {
		return fmt.Errorf("fts5 hashsize: %w", err)
	}
	defer db.w.Exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('hashsize', 1048576)")
	defer db.w.Exec("PRAGMA synchronous(NORMAL)")
	defer db.w.Exec("PRAGMA cache_size(-16000)")
	// The insert trigger would make FTS5 flush a one-message segment per
	// INSERT (its statement savepoint) and spend half the build merging
	// them: it is dropped for the load, each batch is indexed by one
	// INSERT … SELECT, and it is put back as it was.
	var trigger string
	if err := db.w.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert'").Scan(&trigger); err != nil {
		return fmt.Errorf("messages_fts_insert: %w", err)
	}
	if _, err := db.w.ExecContext(ctx, "DROP TRIGGER messages_fts_insert"); err != nil {
		return err
	}
	rows := make(chan []corpusRow, 4)
	go func() {
		defer close(rows)
		produceCorpus(ctx, total, rows)
	}()
	last := map[string][2]any{} // thread -> (leaf id, leaf seq)
	for batch := range rows {
		err := db.writeTx(ctx, func(tx *sql.Tx) error {
			insT, err := tx.PrepareContext(ctx, `INSERT INTO threads (id, title, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer insT.Close()
			insM, err := tx.PrepareContext(ctx, `INSERT INTO messages (seq, id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, status, error, created_at, parent_id, active_at)
VALUES (?, ?, ?, '', ?, ?, '', ?, ?, ?, 0, 'complete', '', ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer insM.Close()
			first := 0
			for _, r := range batch {
				if !r.msg {
					if _, err := insT.ExecContext(ctx, r.thread, r.title, boolInt(r.pinned), r.createdAt, r.updatedAt); err != nil {
						return err
					}
					continue
				}
				var calls any
				if r.calls != "" {
					calls = r.calls
				}
				// active_at = seq: every message is on its thread's active
				// branch (see branches.go).
				if _, err := insM.ExecContext(ctx, r.seq, r.id, r.thread, r.role, r.content, calls, r.callID, r.tool, r.createdAt, r.parent, r.seq); err != nil {
					return err
				}
				last[r.thread] = [2]any{r.id, r.seq}
				if first == 0 {
					first = r.seq
				}
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO messages_fts (rowid, search_text)
SELECT seq, search_text FROM messages WHERE seq >= ? AND search_text IS NOT NULL`, first)
			return err
		})
		if err != nil {
			return err
		}
	}
	// The leaves, as the store keeps them (see branches.go); the big
	// thread was last written at the end.
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, trigger); err != nil {
			return err
		}
		up, err := tx.PrepareContext(ctx, "UPDATE threads SET active_leaf = ?, branch_clock = ? WHERE id = ?")
		if err != nil {
			return err
		}
		defer up.Close()
		for thread, leaf := range last {
			if _, err := up.ExecContext(ctx, leaf[0], leaf[1], thread); err != nil {
				return err
			}
		}
		var clock int64
		if err := tx.QueryRowContext(ctx, "SELECT max(created_at) FROM messages").Scan(&clock); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE threads SET updated_at = ? WHERE id = ?", clock, benchBigThread)
		return err
	})
}

// produceCorpus sends the rows of a history of total messages, in
// batches of corpusBatch: benchThreadsFor(total) threads of user and
// assistant turns (one assistant turn in 7 calls a tool, whose result
// follows), with Zipf-distributed words, and the big thread's benchBigSize
// messages spread over the whole history.
func produceCorpus(ctx context.Context, total int, out chan<- []corpusRow) {
	vocab := vocabulary()
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	text := func(minWords, maxWords int) string {
		n := minWords + r.IntN(maxWords-minWords+1)
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[zipf.Uint64()])
		}
		return b.String()
	}
	batch := make([]corpusRow, 0, corpusBatch)
	send := func(row corpusRow) bool {
		batch = append(batch, row)
		if len(batch) < corpusBatch {
			return true
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return false
		}
		batch = make([]corpusRow, 0, corpusBatch)
		return true
	}
	clock := int64(1_600_000_000_000)
	msgNo := 0
	bigHave := 0
	last := map[string]string{} // each thread is a chain
	put := func(thread string, role history.Role, content, calls, callID, tool string) bool {
		msgNo++
		clock += 1000
		id := fmt.Sprintf("m%07d", msgNo)
		row := corpusRow{msg: true, seq: msgNo, id: id, thread: thread, parent: last[thread], role: string(role),
			content: content, calls: calls, callID: callID, tool: tool, createdAt: clock}
		last[thread] = id
		if thread == benchBigThread {
			bigHave++
		}
		return send(row)
	}
	threads := benchThreadsFor(total)
	if !send(corpusRow{thread: benchBigThread, title: "The big one", createdAt: clock, updatedAt: clock}) {
		return
	}
	bigEvery := total / benchBigSize
	perThread := (total - benchBigSize) / (threads - 1)
	for ti := 1; ti < threads; ti++ {
		id := fmt.Sprintf("t%05d", ti)
		if !send(corpusRow{thread: id, title: text(2, 6), pinned: ti%500 == 0, createdAt: clock, updatedAt: clock + int64(ti)}) {
			return
		}
		n := max(2, perThread/2+r.IntN(perThread+1))
		for i := 0; i < n && msgNo < total-benchBigSize; i++ {
			role := history.RoleUser
			if i%2 == 1 {
				role = history.RoleAssistant
			}
			if role == history.RoleAssistant && r.IntN(7) == 0 {
				call := fmt.Sprintf("call%07d", msgNo)
				args := fmt.Sprintf(`{"path":"/home/me/%s.txt"}`, vocab[zipf.Uint64()])
				if !put(id, role, text(5, 30), fmt.Sprintf(`[{"id":%q,"name":"read_file","arguments":%q}]`, call, args), "", "") ||
					!put(id, history.RoleTool, text(20, 120), "", call, "read_file") {
					return
				}
				continue
			}
			if !put(id, role, text(5, 80), "", "", "") {
				return
			}
			if msgNo%bigEvery == 0 && !put(benchBigThread, history.RoleUser, text(5, 80), "", "", "") {
				return
			}
		}
	}
	// Top the big thread up to exactly benchBigSize.
	for bigHave < benchBigSize {
		if !put(benchBigThread, history.RoleAssistant, text(5, 80), "", "", "") {
			return
		}
	}
	if len(batch) > 0 {
		select {
		case out <- batch:
		case <-ctx.Done():
		}
	}
}
